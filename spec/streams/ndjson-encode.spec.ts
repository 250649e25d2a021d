import { expect } from 'chai';
import { TestScheduler } from 'rxjs/testing';
import type { Frame } from '../../lib/jsonrpc/message.js';
import { ndjsonEncode, toNdjsonLine } from '../../streams/ndjson-encode.js';
import { ndjsonSplit } from '../../streams/ndjson-split.js';

describe('streams/ndjsonEncode', () => {
  it('writes JSON and one newline', () => {
    expect(toNdjsonLine({ jsonrpc: '2.0', method: 'a' })).to.equal('{"jsonrpc":"2.0","method":"a"}\n');
  });

  it('[STDIO-001] [STDIO-003] keeps newlines and U+2028 inside strings off the wire', () => {
    const line = toNdjsonLine({ jsonrpc: '2.0', id: 1, result: { s: 'a\nb\u2028c' } });
    expect(line.indexOf('\n')).to.equal(line.length - 1);
  });

  it('encodes each frame (marbles) and round-trips through ndjsonSplit', () => {
    const scheduler = new TestScheduler((a, e) => {
      expect(a).to.deep.equal(e);
    });
    const a: Frame = { jsonrpc: '2.0', id: 1, method: 'x', params: { t: 'l1\nl2' } };
    const b: Frame = [{ jsonrpc: '2.0', id: 'q', result: {} }];
    scheduler.run(({ cold, expectObservable }) => {
      const encoded = cold('-a-b|', { a, b }).pipe(ndjsonEncode());
      expectObservable(encoded).toBe('-a-b|', { a: JSON.stringify(a) + '\n', b: JSON.stringify(b) + '\n' });
      expectObservable(encoded.pipe(ndjsonSplit())).toBe('-a-b|', { a: JSON.stringify(a), b: JSON.stringify(b) });
    });
  });
});
