// Every TypeScript block of the README is an example file (examples/readme/*.ts), verbatim, and
// every example file is shown: spec/package/package.spec.ts compiles and runs those files against
// the packed package, so the README cannot drift from code that works.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const EXAMPLES = join(ROOT, 'examples', 'readme');

describe('README code blocks', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^```(ts|typescript|js|javascript)\n([\s\S]*?)^```$/gm)].map((m) => m[2]!);
  const files = new Map(readdirSync(EXAMPLES).filter((f) => f.endsWith('.ts')).map((f) => [f, readFileSync(join(EXAMPLES, f), 'utf8')]));

  it('each is an example file, verbatim', () => {
    const unmatched = blocks.filter((b) => ![...files.values()].includes(b));
    expect(unmatched.map((b) => b.split('\n')[0]), 'README blocks that are not a file of examples/readme (copy the file in)').to.deep.equal([]);
  });

  it('each example file is shown', () => {
    expect([...files].filter(([, text]) => !blocks.includes(text)).map(([name]) => name)).to.deep.equal([]);
  });

  it('the two set-up commands stay at the top', () => {
    const setup = readme.slice(0, readme.indexOf('## Use it as a library'));
    expect(setup).to.include('npm ci && npm start').and.include('npm ci && npm test');
  });
});
