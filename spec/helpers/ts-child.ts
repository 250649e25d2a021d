/**
 * How specs start a child process that runs one of the repository's TypeScript files (the CLI, a
 * fixture server, an example).
 *
 * `node --import tsx file.ts` pays tsx's loader in every child: on 2 cores that is 1–2 s of CPU per
 * process before the file runs, and the suite starts a few hundred children. So the first call in
 * a process compiles the sources once, file by file, into a temporary copy of the tree (esbuild,
 * the same transform tsx applies, with the same tsconfig), and children run the `.js` there with
 * plain `node`: the same module graph, no loader. Code that picks its sibling by its own extension
 * (`import.meta.url` ending in `.ts` or not) takes the built path, as it does from `dist/`.
 *
 * `MCP_SPEC_TSX=1` keeps the old way (children under tsx, straight from the sources).
 */
import { buildSync } from 'esbuild';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The trees children may run from (spec files themselves are never a child's entry). */
const TREES = ['lib', 'streams', 'machines', 'examples', 'scripts', 'spec'];

let built: string | undefined;

function walk(dir: string, into: { ts: string[]; other: string[] }): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'results') walk(path, into);
    } else if (entry.name.endsWith('.spec.ts') || entry.name.endsWith('.d.ts')) {
      continue;
    } else if (entry.name.endsWith('.ts')) {
      into.ts.push(path);
    } else if (/\.(mjs|cjs|js|json|txt)$/.test(entry.name)) {
      into.other.push(path);
    }
  }
}

const PREFIX = 'mcp-actors-spec-js-';

/** Copies left by processes that did not exit on their own (a parallel run's workers are killed). */
function removeOrphans(): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = name.startsWith(PREFIX) ? Number(name.slice(PREFIX.length).split('-')[0]) : NaN;
    if (!Number.isSafeInteger(pid) || pid <= 0) continue;
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') rmSync(join(tmpdir(), name), { recursive: true, force: true });
    }
  }
}

/** The compiled copy of the tree (built on first use, removed when this process exits). */
function compiledTree(): string {
  if (built !== undefined) return built;
  removeOrphans();
  const out = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
  process.once('exit', () => rmSync(out, { recursive: true, force: true }));
  const files = { ts: [] as string[], other: [] as string[] };
  for (const tree of TREES) if (existsSync(join(REPO, tree))) walk(join(REPO, tree), files);
  buildSync({
    entryPoints: files.ts,
    outdir: out,
    outbase: REPO,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node}`,
    logLevel: 'error',
    absWorkingDir: REPO,
  });
  for (const file of files.other) cpSync(file, join(out, relative(REPO, file)));
  // Packages resolve from the copy as from the repository.
  symlinkSync(join(REPO, 'node_modules'), join(out, 'node_modules'), 'dir');
  cpSync(join(REPO, 'package.json'), join(out, 'package.json'));
  return (built = out);
}

// Built while the spec files load, where no test's timeout runs (the first spawn may be in a test).
if (process.env.MCP_SPEC_TSX !== '1') compiledTree();

/**
 * The node arguments that run `file` (a `.ts` of this repository, absolute or relative to its root),
 * to put after `process.execPath`: `[compiled.js]`, or `['--import', 'tsx', file]` with
 * `MCP_SPEC_TSX=1` or for a file outside the repository's trees.
 */
export function tsArgs(file: string): string[] {
  const abs = isAbsolute(file) ? file : join(REPO, file);
  const rel = relative(REPO, abs);
  if (process.env.MCP_SPEC_TSX === '1' || !abs.endsWith('.ts') || !TREES.some((t) => rel.startsWith(t + '/'))) {
    return ['--import', 'tsx', file];
  }
  return [join(compiledTree(), rel.replace(/\.ts$/, '.js'))];
}
