import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every source file of the package (what a user reads in the repository or the shipped .d.ts). */
function sources(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (path.endsWith('.ts')) out.push(path);
  }
  return out;
}

describe('layers: comments link what a reader can open', () => {
  it('no comment links the protocol texts by a path outside the repository (../shared/spec/...): the public spec pages instead', () => {
    const found = ['lib', 'streams', 'machines']
      .flatMap((dir) => sources(dir))
      .flatMap((file) => readFileSync(file, 'utf8').split('\n').map((line, i) => ({ file, line: i + 1, text: line })))
      .filter((l) => /\.\.\/shared\/spec\b/.test(l.text))
      .map((l) => `${l.file}:${l.line}`);
    expect(found).to.deep.equal([]);
  });

  it('no comment cites an internal tracker id (issue 29): an outsider cannot open it; the comment says the why itself', () => {
    const found = ['lib', 'streams', 'machines']
      .flatMap((dir) => sources(dir))
      .flatMap((file) => readFileSync(file, 'utf8').split('\n').map((line, i) => ({ file, line: i + 1, text: line })))
      .filter((l) => /^\s*(\/\/|\/?\*)/.test(l.text) && /\bissues? #?\d+/i.test(l.text))
      .map((l) => `${l.file}:${l.line}`);
    expect(found).to.deep.equal([]);
  });
});
