/**
 * Export every machine of `machines/index.ts` for Stately's editor.
 *
 *   npm run machines              write docs/machines/<id>.json and docs/machines/README.md
 *   npm run machines -- --check   only compare with the files on disk; exit 1 when they differ
 *
 * The JSON is the machine's config as written in its `.machine.ts` file (the object literal given
 * to `setup(...).createMachine`), minus the `context` factory: `createMachine(json)` rebuilds a
 * machine with the same states and transitions, and Stately's editor can import it. It is not
 * `machine.toJSON()`: that is the resolved definition (`#id` targets, `initial` as a transition
 * object, `order`...), which `createMachine` does not accept back.
 *
 * Output is deterministic: same machines → byte-identical files.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AnyStateMachine } from 'xstate';
import { machines } from '../machines/index.js';
import { renderMachineJSON } from '../machines/json.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const OUT_DIR = join(ROOT, 'docs', 'machines');

export { machineConfigJSON, renderMachineJSON } from '../machines/json.js';

// --- README -------------------------------------------------------------------------------------

interface DefNode {
  id: string;
  key: string;
  type: string;
  description?: string;
  initial: { target: string[] };
  states: Record<string, DefNode>;
  transitions: DefTransition[];
}
interface DefTransition {
  eventType: string;
  source: string;
  target?: string[];
  guard?: string | { type: string };
  delay?: string | number;
}

function nameOf(x: string | { type: string } | undefined): string | undefined {
  return typeof x === 'string' ? x : x?.type;
}

/** `#request.active.pending` / `request.active.pending` → `active.pending`. */
function localPath(machineId: string, id: string): string {
  const bare = id.startsWith('#') ? id.slice(1) : id;
  return bare === machineId ? '(root)' : bare.startsWith(machineId + '.') ? bare.slice(machineId.length + 1) : bare;
}

function stateLines(machineId: string, node: DefNode, depth: number): string[] {
  const lines: string[] = [];
  const initialTarget = node.initial?.target?.[0];
  for (const child of Object.values(node.states)) {
    const marks: string[] = [];
    if (initialTarget !== undefined && localPath(machineId, initialTarget) === localPath(machineId, child.id)) marks.push('initial');
    if (child.type !== 'atomic' && child.type !== 'compound') marks.push(child.type);
    const note = child.description ? `: ${child.description}` : '';
    lines.push(`${'  '.repeat(depth)}- \`${child.key}\`${marks.length ? ` (${marks.join(', ')})` : ''}${note}`);
    lines.push(...stateLines(machineId, child, depth + 1));
  }
  return lines;
}

function allNodes(node: DefNode): DefNode[] {
  return [node, ...Object.values(node.states).flatMap(allNodes)];
}

/** The Markdown section of one machine: states, events, delayed transitions, named implementations. */
export function machineSummary(name: string, machine: AnyStateMachine): string {
  // Through JSON: the definition's transitions serialize their targets as `#id` strings.
  const def = JSON.parse(JSON.stringify(machine.toJSON())) as DefNode;
  const id = machine.id;
  const events = new Map<string, string[]>();
  const delayed: string[] = [];
  for (const node of allNodes(def)) {
    for (const t of node.transitions) {
      const from = localPath(id, node.id);
      const to = t.target?.length ? t.target.map((x) => localPath(id, x)).join(', ') : '(stays)';
      const guard = nameOf(t.guard);
      const edge = `${from} → ${to}${guard ? ` [${guard}]` : ''}`;
      if (t.delay !== undefined) {
        delayed.push(`- ${from} → ${to} after \`${String(t.delay)}\`${guard ? ` [${guard}]` : ''}`);
        continue;
      }
      const list = events.get(t.eventType) ?? [];
      list.push(edge);
      events.set(t.eventType, list);
    }
  }
  const impl = machine.implementations as unknown as Record<string, Record<string, unknown> | undefined>;
  const named = (kind: string) => Object.keys(impl[kind] ?? {}).map((k) => `\`${k}\``).join(', ') || '(none)';
  const lines = [
    `## \`${id}\``,
    '',
    `[\`${name}.json\`](./${name}.json) · \`import { ${name}Machine } from 'mcp-actors/machines'\``,
    '',
    '**States**',
    '',
    ...stateLines(id, def, 0),
    '',
    '**Events**',
    '',
    ...[...events.entries()].map(([type, edges]) => `- \`${type}\`: ${edges.join('; ')}`),
    '',
  ];
  if (delayed.length) lines.push('**Delayed transitions**', '', ...delayed, '');
  lines.push(
    `**Named actions**: ${named('actions')}`,
    '',
    `**Guards**: ${named('guards')}`,
    '',
    `**Delays**: ${named('delays')}`,
    '',
  );
  return lines.join('\n');
}

export function renderReadme(all: Record<string, AnyStateMachine>): string {
  const names = Object.keys(all);
  return [
    '# Machines',
    '',
    '<!-- Generated by `npm run machines` (scripts/export-machines.ts). Do not edit: change machines/*.machine.ts and rerun. -->',
    '',
    'The XState machines of `mcp-actors`, exported as JSON for Stately:',
    '',
    ...names.map((n) => `- [\`${n}.json\`](./${n}.json): \`${all[n]!.id}\`, ${Object.keys(all[n]!.states).length} top-level states`),
    '',
    'Each file is the machine config as written in `machines/<name>.machine.ts` (without the `context`',
    'factory, which computes the context from the `input`): `createMachine(json)` from `xstate` rebuilds',
    'the same states and transitions. Actions, guards and delays are referred to by name; their',
    'implementations are the runtime\'s (`machine.provide({ actions })`).',
    '',
    '## Open in Stately\'s editor',
    '',
    'In Stately\'s editor (<https://stately.ai/editor>) create a new machine, choose **Import**, and paste',
    '`createMachine(` + the contents of a JSON file + `)`. The editor draws the states, transitions,',
    'guards and delayed transitions. Edits made there do not flow back: change the `.machine.ts` file',
    'and run `npm run machines` (the spec `spec/machines/export.spec.ts` fails while these files are stale).',
    'From code, `machinesJSON()` from `mcp-actors/machines` returns the same JSON for every machine.',
    '',
    '## Watch a live actor',
    '',
    'Stately\'s inspector comes with the `@statelyai/inspect` package (not a dependency of `mcp-actors`;',
    'add it to your own project). Create an inspector with it and pass its `inspect` function to',
    '`createActor(machine.provide({ ... }), { input, inspect })` for any of these machines.',
    '',
    ...names.map((n) => machineSummary(n, all[n]!)),
  ].join('\n');
}

/** Every file of docs/machines, by file name, as `npm run machines` writes them. */
export function renderAll(all: Record<string, AnyStateMachine> = machines): Map<string, string> {
  const files = new Map<string, string>();
  for (const [name, machine] of Object.entries(all)) files.set(`${name}.json`, renderMachineJSON(machine));
  files.set('README.md', renderReadme(all));
  return files;
}

/** Names of files that are missing, different, or stale (a JSON file no machine produces). */
export function outdated(dir = OUT_DIR, files = renderAll()): string[] {
  const bad: string[] = [];
  for (const [name, content] of files) {
    const path = join(dir, name);
    if (!existsSync(path) || readFileSync(path, 'utf8') !== content) bad.push(name);
  }
  if (existsSync(dir)) {
    for (const name of readdirSync(dir)) if (name.endsWith('.json') && !files.has(name)) bad.push(name);
  }
  return bad.sort();
}

function main(argv: string[]): number {
  const files = renderAll();
  if (argv.includes('--check')) {
    const bad = outdated(OUT_DIR, files);
    if (bad.length) {
      console.error(`docs/machines is out of date (${bad.join(', ')}): run npm run machines`);
      return 1;
    }
    console.log('docs/machines is up to date');
    return 0;
  }
  mkdirSync(OUT_DIR, { recursive: true });
  for (const name of readdirSync(OUT_DIR)) {
    if (name.endsWith('.json') && !files.has(name)) rmSync(join(OUT_DIR, name));
  }
  for (const [name, content] of files) writeFileSync(join(OUT_DIR, name), content);
  console.log(`wrote ${[...files.keys()].map((n) => `docs/machines/${n}`).join(', ')}`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
