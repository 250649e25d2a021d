import { expect } from 'chai';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * spec/ mirrors the source tree: a spec folder is named after the source folder it tests
 * (spec/server-features ↔ lib/server-features, spec/auth/grants ↔ lib/auth/grants, spec/streams ↔
 * streams/, spec/machines ↔ machines/), or after a single file of lib/ (spec/clock ↔ lib/clock.ts),
 * or is one of the cross-cutting folders below (anything under them goes). A folder named
 * `fixtures` holds the files its parent's specs run.
 */
export const CROSS_CUTTING = [
  'interop', // our client and server against the official SDKs, the Inspector, the everything server
  'robustness', // fuzzing, faults, limits, advisories: the whole package under abuse
  'docs', // README examples, requirements table, docs kept true
  'package', // the packed package and its public surface
  'examples', // examples/ as a user runs them
  'bench', // the benchmark drivers
  'runtimes', // Bun, Deno, Workers
  'inspect', // the actors view over a running session (CLI, viewer, machines together)
  'fixtures', // servers and clients the specs spawn
  'helpers', // shared spec helpers and the root hooks
  'layers', // the layer rule, names, this rule
];

/** The spec folders (relative to spec/, '/'-separated) that follow no rule. */
export function strayFolders(folders: readonly string[], exists: (path: string) => boolean): string[] {
  return folders.filter((folder) => {
    const parts = folder.split('/');
    if (CROSS_CUTTING.includes(parts[0]!) || parts.at(-1) === 'fixtures') return false;
    if (['streams', 'machines'].includes(parts[0]!)) return !exists(folder);
    return !exists(`lib/${folder}`) && !(parts.length === 1 && exists(`lib/${folder}.ts`));
  });
}

function folders(dir: string, prefix = '', out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    if (!statSync(join(dir, entry)).isDirectory()) continue;
    out.push(prefix + entry);
    folders(join(dir, entry), `${prefix}${entry}/`, out);
  }
  return out;
}

describe('layers: spec/ mirrors the source tree', () => {
  it('every spec folder is named after a source folder (or a lib/ file), or is a listed cross-cutting folder', () => {
    const found = folders('spec');
    expect(found).to.include.members(['server-bindings', 'streams', 'auth/grants', 'server-features/interceptors']);
    expect(strayFolders(found, existsSync)).to.deep.equal([]);
  });

  it('the rule names a folder that mirrors nothing, and lets fixtures and cross-cutting folders be', () => {
    const tree = new Set(['lib/auth', 'lib/auth/grants', 'lib/clock.ts', 'streams']);
    const stray = strayFolders(
      ['auth', 'auth/grants', 'auth-grants', 'http-server', 'clock', 'streams', 'streams/extra', 'otel/fixtures', 'interop/auth', 'robustness/fuzz'],
      (path) => tree.has(path),
    );
    expect(stray).to.deep.equal(['auth-grants', 'http-server', 'streams/extra']);
  });
});
