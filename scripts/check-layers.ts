/**
 * The layer rule: every import between the package's own files (type-only and dynamic
 * `import()` included) goes to the same layer or one below, and no two files import each other,
 * directly or round a circle. Run by `npm run lint` (so by `npm test`).
 *
 * Why a script over the TypeScript compiler API rather than a tool: dependency-cruiser and
 * eslint-plugin-import are not installed, and `typescript` is; the parse is the compiler's own, so
 * `import type`, `export ... from` and `import('...')` types are all seen. The layer table below is
 * the one place that says which file belongs where (docs/architecture.md shows it).
 *
 * Usage: `tsx scripts/check-layers.ts` (exit 1 on a finding), `--graph` prints every edge.
 */
import ts from 'typescript';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The layers, bottom first. A file belongs to the first layer with a pattern that matches its path
 * (`dir/**` = everything under dir, otherwise an exact path). A file no pattern matches is a
 * finding, so a new file is placed on purpose.
 */
export const LAYERS: ReadonlyArray<{ readonly name: string; readonly files: readonly string[] }> = [
  {
    name: 'frame', // JSON-RPC frames, the Transport contract, frame streams that know no MCP method
    files: [
      'lib/jsonrpc/**',
      'streams/transport.ts', 'streams/inbound.ts', 'streams/decode.ts', 'streams/parse-json.ts', 'streams/known-meta.ts',
      'streams/ndjson-encode.ts', 'streams/ndjson-split.ts', 'streams/sse-parse.ts', 'streams/sse-encode.ts',
      'streams/correlate.ts', 'streams/frame-kind.ts', 'streams/route.ts', 'streams/receive.ts',
      'streams/journal-tap.ts',
      'lib/crypto/bytes.ts', // UTF-8 and byte helpers, which the frame codec needs; imports nothing
    ],
  },
  {
    name: 'protocol', // revisions, schemas, era rules; OAuth's and elicitation's pure wire rules
    files: [
      'lib/protocol/**', 'lib/client-features/form-schema.ts',
      'lib/auth/www-authenticate.ts', 'lib/auth/scope-selection.ts', 'lib/auth/authorization-errors.ts', 'lib/auth/discovery-types.ts',
    ],
  },
  {
    name: 'platform', // clock, crypto, fetch, runtime probes, errors and small shared utilities
    files: [
      'lib/platform/**', 'lib/shared/**', 'lib/clock.ts', 'lib/crypto/**', 'lib/runtime.ts', 'lib/next-turn.ts',
      'lib/host-warning.ts', 'lib/errors.ts', 'streams/guarded.ts', 'streams/memory.ts',
      'streams/http-fetch.ts', 'streams/http-shape.ts', 'streams/fetch-shim.ts', 'streams/http-body.ts',
      'streams/http-auth.ts', // the authentication hook's contract and the identity rule
      'lib/auth/principal.ts', // the one identity rule (sessions, tasks, requestState); imports nothing
    ],
  },
  { name: 'machines', files: ['machines/**'] }, // pure definitions, no I/O
  { name: 'core', files: ['lib/session/**', 'lib/journal/entry.ts', 'lib/journal/journal.ts', 'lib/journal/entry-store.ts'] }, // session core and what it journals
  {
    name: 'features', // server and client, their features, tasks, auth, journal
    files: [
      'lib/server.ts', 'lib/modern/**', 'lib/mcp-server.ts', 'lib/server-store.ts', 'lib/server-features/**',
      'lib/client-core.ts', 'lib/client.ts', 'lib/client-options.ts', 'lib/client-features/**',
      'lib/client-modern/**', 'lib/client-era/**', 'lib/tasks/**', 'lib/auth/**', 'lib/journal/**',
      'lib/otel/**', // OpenTelemetry as interceptors (issue 29)
    ],
  },
  {
    name: 'bindings', // HTTP, fetch, WebSocket, stdio, cluster
    files: ['lib/server-bindings/**', 'lib/http/**', 'lib/redis/**', 'lib/terminal/**', 'streams/**', 'lib/apps/**'],
  },
  { name: 'host', files: ['lib/host/**', 'lib/gateway/**', 'lib/cli/**', 'lib/index.ts', 'lib/entries/**'] },
];

/** Where the rule looks. */
const ROOTS = ['lib', 'machines', 'streams'];

export interface Edge {
  readonly from: string;
  readonly to: string;
}

export interface Findings {
  readonly unplaced: readonly string[];
  readonly upward: readonly (Edge & { readonly fromLayer: string; readonly toLayer: string })[];
  readonly cycles: readonly (readonly string[])[];
}

function matches(pattern: string, file: string): boolean {
  return pattern.endsWith('/**') ? file.startsWith(pattern.slice(0, -2)) : file === pattern;
}

/** The index of the layer `file` belongs to, or -1. */
export function layerOf(file: string): number {
  return LAYERS.findIndex((layer) => layer.files.some((p) => matches(p, file)));
}

function sourceFiles(root: string, dir: string, out: string[]): string[] {
  for (const entry of readdirSync(join(root, dir))) {
    const path = join(dir, entry);
    if (statSync(join(root, path)).isDirectory()) sourceFiles(root, path, out);
    else if (path.endsWith('.ts') && !path.endsWith('.d.ts')) out.push(path.split(sep).join('/'));
  }
  return out;
}

/** Every module specifier in a file: imports, re-exports, `import('...')` calls and types. */
function specifiers(file: string, text: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true));
  return found;
}

function resolve(root: string, from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = normalize(join(dirname(from), spec)).split(sep).join('/');
  for (const candidate of [base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base.replace(/\.js$/, '')}/index.ts`]) {
    if (existsSync(join(root, candidate)) && statSync(join(root, candidate)).isFile()) return candidate;
  }
  return undefined;
}

/** The import graph of the package's own files, relative to `root`. */
export function importGraph(root: string): { files: string[]; edges: Edge[] } {
  const files = ROOTS.flatMap((dir) => sourceFiles(root, dir, [])).sort();
  const edges: Edge[] = [];
  for (const from of files) {
    const seen = new Set<string>();
    for (const spec of specifiers(from, readFileSync(join(root, from), 'utf8'))) {
      const to = resolve(root, from, spec);
      if (to === undefined || seen.has(to) || !to.match(/^(lib|machines|streams)\//)) continue;
      seen.add(to);
      edges.push({ from, to });
    }
  }
  return { files, edges };
}

/** Strongly connected components with more than one file (or a file importing itself): Tarjan. */
function cycles(files: readonly string[], edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const e of edges) next.get(e.from)?.push(e.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  // Iterative, so a long chain cannot overflow the stack.
  for (const start of files) {
    if (index.has(start)) continue;
    const work: [string, number][] = [[start, 0]];
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const [node, i] = top;
      if (i === 0) {
        index.set(node, counter);
        low.set(node, counter);
        counter++;
        stack.push(node);
        onStack.add(node);
      }
      const targets = next.get(node) ?? [];
      if (i < targets.length) {
        top[1] = i + 1;
        const to = targets[i]!;
        if (!index.has(to)) work.push([to, 0]);
        else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]![0];
        low.set(parent, Math.min(low.get(parent)!, low.get(node)!));
      }
      if (low.get(node) === index.get(node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        if (component.length > 1 || targets.includes(node)) found.push(component.sort());
      }
    }
  }
  return found;
}

/** Every finding of the rule over the tree at `root`. */
export function checkLayers(root: string): Findings {
  const { files, edges } = importGraph(root);
  const unplaced = files.filter((f) => layerOf(f) < 0);
  const upward = edges
    .filter((e) => layerOf(e.from) >= 0 && layerOf(e.to) > layerOf(e.from))
    .map((e) => ({ ...e, fromLayer: LAYERS[layerOf(e.from)]!.name, toLayer: LAYERS[layerOf(e.to)]!.name }));
  return { unplaced, upward, cycles: cycles(files, edges) };
}

/** One line per finding, as the check prints it (and as PENDING lists it). */
export function describe(findings: Findings): string[] {
  return [
    ...findings.unplaced.map((f) => `${f} is in no layer (add it to LAYERS in scripts/check-layers.ts)`),
    ...findings.upward.map((e) => `${e.from} (${e.fromLayer}) imports ${e.to} (${e.toLayer}), a layer above`),
    ...findings.cycles.map((c) => `import cycle between ${c.length} files: ${c.join(', ')}`),
  ];
}

function main(): void {
  const root = relative(process.cwd(), join(dirname(fileURLToPath(import.meta.url)), '..')) || '.';
  if (process.argv.includes('--graph')) {
    for (const e of importGraph(root).edges) console.log(`${e.from} -> ${e.to}`);
    return;
  }
  const lines = describe(checkLayers(root));
  // No exceptions: every finding fails.
  for (const line of lines) console.error(`error ${line}`);
  if (lines.length > 0) process.exitCode = 1;
  console.log(`layers: ${LAYERS.length} layers; ${lines.length} errors`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === normalize(process.argv[1])) main();
