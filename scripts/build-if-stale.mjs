/* global process, URL */
// `npm start`, `npm run demo` and `npm run bench` run from dist/: this builds it only when a
// source is newer than the last build, so a fresh clone, built by `npm ci` (`prepare`), starts at
// once. The last build: the entry file's time (a full `npm run build` writes every output) or that
// of this script's incremental state (dist/.tsbuildinfo), whichever is later; an edit is rebuilt
// incrementally. `npm run build` stays a full build, so it also restores outputs removed by hand.
// Plain JavaScript: it runs before anything is compiled.
// Usage: node scripts/build-if-stale.mjs dist/examples/everything.js
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const STATE = join(root, 'dist', '.tsbuildinfo');
// What tsconfig.build.json compiles, and what changes the compiler's output.
const SOURCE_DIRS = ['lib', 'machines', 'streams', 'examples', 'bench'];
const CONFIG_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json'];

function newestSource() {
  let newest = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'results') walk(path);
      } else if (/\.(m|c)?tsx?$|\.json$/.test(entry.name)) {
        newest = Math.max(newest, statSync(path).mtimeMs);
      }
    }
  };
  for (const dir of SOURCE_DIRS) if (existsSync(join(root, dir))) walk(join(root, dir));
  for (const file of CONFIG_FILES) if (existsSync(join(root, file))) newest = Math.max(newest, statSync(join(root, file)).mtimeMs);
  return newest;
}

const entry = process.argv[2];
if (entry === undefined) {
  process.stderr.write('Usage: node scripts/build-if-stale.mjs dist/<entry>.js\n');
  process.exit(2);
}
const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : 0);
const entryTime = mtime(join(root, entry));
const built = Math.max(entryTime, mtime(STATE));
if (entryTime > 0 && built >= newestSource()) process.exit(0);

// No entry file: dist/ is missing or was partly removed, which the incremental state would not
// see (tsc writes only what it thinks changed), so it starts from nothing.
if (entryTime === 0) rmSync(STATE, { force: true });
const started = Date.now();
process.stderr.write(entryTime === 0 ? 'Building dist/ (tsc)…\n' : 'Sources changed since the last build: rebuilding dist/ (tsc, incremental)…\n');
const tsc = spawnSync(
  process.execPath,
  [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json'), '--incremental', '--tsBuildInfoFile', STATE],
  { stdio: 'inherit' },
);
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
// tsc leaves its state untouched when no output changed (an edit of a comment, a touch): marked
// current, so the next start does not ask it again.
const now = new Date();
if (existsSync(STATE)) utimesSync(STATE, now, now);
process.stderr.write(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
