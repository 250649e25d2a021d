import { expect } from 'chai';
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * One name, one thing: a source file's name says what it is, so no two files under lib/, streams/
 * and machines/ share a name, except where the folder gives the name its meaning: `index.ts` (a
 * folder's entry), lib/entries/ (named after the package entry), lib/cli/commands/ (named after
 * the command) and lib/protocol/schema/ (named after the spec page).
 */
const NAMED_BY_FOLDER = ['lib/entries/', 'lib/cli/commands/', 'lib/protocol/schema/'];

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (/\.(ts|mts|tsx)$/.test(path)) out.push(path.split('\\').join('/'));
  }
  return out;
}

/** The names used by more than one file that no rule allows, each with its files. */
export function repeatedNames(files: readonly string[]): Record<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const file of files) {
    const name = basename(file);
    if (name === 'index.ts' || NAMED_BY_FOLDER.some((dir) => file.startsWith(dir))) continue;
    byName.set(name, [...(byName.get(name) ?? []), file]);
  }
  return Object.fromEntries([...byName].filter(([, paths]) => paths.length > 1));
}

describe('layers: one name, one thing', () => {
  it('no two source files share a name outside index.ts, lib/entries/, lib/cli/commands/ and lib/protocol/schema/', () => {
    const files = ['lib', 'streams', 'machines'].flatMap((dir) => sources(dir));
    expect(files.length).to.be.greaterThan(100);
    expect(repeatedNames(files)).to.deep.equal({});
  });

  it('the rule finds a repeated name and lets the folder-named files be', () => {
    expect(
      repeatedNames([
        'lib/http/listen.ts', 'lib/modern/listen.ts', 'lib/index.ts', 'lib/auth/index.ts',
        'lib/entries/client.ts', 'lib/client.ts', 'lib/cli/commands/replay.ts', 'lib/journal/replay.ts',
        'lib/protocol/schema/tools.ts', 'lib/server-features/tools.ts',
      ]),
    ).to.deep.equal({ 'listen.ts': ['lib/http/listen.ts', 'lib/modern/listen.ts'] });
  });
});
