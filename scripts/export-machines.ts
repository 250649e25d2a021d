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
import { renderAll } from '../machines/readme.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const OUT_DIR = join(ROOT, 'docs', 'machines');

export { machineConfigJSON, renderMachineJSON } from '../machines/json.js';
export { machineSummary, renderReadme, renderAll } from '../machines/readme.js';

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
