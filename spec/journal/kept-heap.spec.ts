// What a journal keeps of a tool's answer is the answer's objects (issue 26: the collector copies
// and marks each kept byte): the content array a server makes holds room for its blocks only,
// not the 17 slots an array pushed to reserves (152 bytes for one block, kept per call).
import { expect } from 'chai';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { contentForRevision } from '../../lib/server-features/content.js';
import type { ContentBlock } from '../../lib/protocol/schema/content.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Retained heap bytes per item of `make(i)`, `n` kept (full collections before and after). */
function retainedPer(n: number, make: (i: number) => unknown): number {
  const kept: unknown[] = new Array(n);
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < n; i++) kept[i] = make(i);
  gc();
  const bytes = process.memoryUsage().heapUsed - before;
  expect(kept.length).to.equal(n);
  return bytes / n;
}

describe('the heap a kept tool answer takes', () => {
  it('a one-block answer content array is sized to its block (what a journal keeps per call)', () => {
    const blocks: ContentBlock[][] = [];
    for (let i = 0; i < 20_000; i++) blocks.push([{ type: 'text', text: 'hello' }]);
    const perArray = retainedPer(20_000, (i) => contentForRevision(blocks[i]!, '2026-07-28'));
    // An array and one slot: 56 bytes on 64-bit Node (pushed to, 184).
    expect(perArray).to.be.below(100);
    // Blocks a revision cannot carry are still left out, the rest in order.
    const mixed = [{ type: 'text', text: 'a' }, { type: 'resource_link', uri: 'file:///x', name: 'x' }, { type: 'text', text: 'b' }] as ContentBlock[];
    expect(contentForRevision(mixed, '2024-11-05')).to.deep.equal([mixed[0], mixed[2]]);
    expect(contentForRevision(mixed, '2026-07-28')).to.deep.equal(mixed);
  });
});
