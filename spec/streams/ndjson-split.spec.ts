import { expect } from 'chai';
import { Observable, from, take, toArray, lastValueFrom } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { ndjsonSplit } from '../../streams/ndjson-split.js';
import { OversizeFrame } from '../../streams/transport.js';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Splits a byte array into chunks of the given size. */
function chunked(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

function run(chunks: (Uint8Array | string)[], maxLineBytes?: number): Promise<(string | OversizeFrame)[]> {
  return lastValueFrom(from(chunks).pipe(ndjsonSplit(maxLineBytes === undefined ? {} : { maxLineBytes }), toArray()));
}

describe('streams/ndjsonSplit', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = new TestScheduler((actual, expected) => {
      expect(actual).to.deep.equal(expected);
    });
  });

  it('splits lines across and within chunks (marbles)', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const src = cold('-a-b-c----|', { a: '{"x":1}\n{"y"', b: ':2}\r\n\n  \t\n', c: '{"z":3}\n{"w":4}\n' });
      expectObservable(src.pipe(ndjsonSplit())).toBe('-a-b-(cd)-|', {
        a: '{"x":1}',
        b: '{"y":2}',
        c: '{"z":3}',
        d: '{"w":4}',
      });
    });
  });

  it('emits a last line that has no newline on completion, but not a blank one', () => {
    scheduler.run(({ cold, expectObservable }) => {
      expectObservable(cold('-a-b|', { a: '{"a":1}\n{"b"', b: ':2}' }).pipe(ndjsonSplit())).toBe('-a--(b|)', {
        a: '{"a":1}',
        b: '{"b":2}',
      });
      expectObservable(cold('-a|', { a: '{"a":1}\n  \r' }).pipe(ndjsonSplit())).toBe('-a|', { a: '{"a":1}' });
    });
  });

  it('passes errors through', () => {
    scheduler.run(({ cold, expectObservable }) => {
      expectObservable(cold('-a-#', { a: 'x\ny' }).pipe(ndjsonSplit())).toBe('-a-#', { a: 'x' });
    });
  });

  it('strips \\r only at the end of a line, also when \\r and \\n arrive apart', async () => {
    expect(await run(['a\rb\r', '\nc\r\n'])).to.deep.equal(['a\rb', 'c']);
  });

  it('[TRAN-001] reassembles "é" and an emoji split byte by byte', async () => {
    const line = '{"s":"é😀ü"}';
    expect(await run(chunked(utf8(`${line}\n${line}\n`), 1))).to.deep.equal([line, line]);
  });

  it('turns an incomplete character at the very end into U+FFFD', async () => {
    const bytes = utf8('ab😀');
    expect(await run([bytes.subarray(0, bytes.length - 1)])).to.deep.equal(['ab\ufffd']);
  });

  it('drops a byte order mark at the start of the stream', async () => {
    expect(await run([new Uint8Array([0xef, 0xbb, 0xbf]), utf8('{"a":1}\n')])).to.deep.equal(['{"a":1}']);
  });

  it('decodes Buffer chunks as pipes deliver them: a BOM first, then characters split between ASCII-ended chunks', async () => {
    const buf = (s: string): Buffer => Buffer.from(s, 'utf8');
    const e = buf('é'); // two bytes
    const lines = await run([
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), buf('{"a":1}\n')]),
      buf('{"b":"x"}\n'),
      Buffer.concat([buf('{"c":"'), e.subarray(0, 1)]),
      Buffer.concat([e.subarray(1), buf('"}\n{"d":"é"}\n')]),
      buf('{"e":"😀"}\n'),
    ]);
    expect(lines).to.deep.equal(['{"a":1}', '{"b":"x"}', '{"c":"é"}', '{"d":"é"}', '{"e":"😀"}']);
  });

  it('handles many lines in one chunk', async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `{"jsonrpc":"2.0","method":"n","params":{"i":${i}}}`);
    expect(await run([utf8(lines.join('\n') + '\n')])).to.deep.equal(lines);
  });

  it('handles one line spread over many chunks', async () => {
    const line = JSON.stringify({ s: 'é'.repeat(20000) + 'x'.repeat(20000) });
    const out = await run([...chunked(utf8(line), 7), utf8('\n')]);
    expect(out).to.deep.equal([line]);
  });

  it('mixes string and byte chunks', async () => {
    expect(await run(['{"a"', utf8(':1}\n'), '{"b":2}\n'])).to.deep.equal(['{"a":1}', '{"b":2}']);
  });

  it('reports an oversize line once, drops it, and goes on with the next line (strings)', async () => {
    const out = await run(['aaaaaa', 'aaaaaa', 'aaaaaaaa', 'aa\n{"ok":1}\n'], 10);
    expect(out).to.deep.equal([new OversizeFrame(12, 10, 'aaaaaa'), '{"ok":1}']);
    expect(out[0]).to.be.instanceOf(OversizeFrame);
  });

  it('reports an oversize line once, drops it, and goes on with the next line (bytes)', async () => {
    const bytes = utf8(`${'ü'.repeat(50)}\n{"ok":"ü"}\n`);
    const out = await run(chunked(bytes, 3), 20);
    expect(out).to.have.length(2);
    expect(out[0]).to.be.instanceOf(OversizeFrame);
    expect((out[0] as OversizeFrame).limit).to.equal(20);
    expect((out[0] as OversizeFrame).size).to.be.above(20).and.at.most(100);
    expect(out[1]).to.equal('{"ok":"ü"}');
    expect((out[0] as OversizeFrame).head).to.match(/^ü+$/);
  });

  it('reports the exact size of an oversize line that lies in one chunk, counted in UTF-8 bytes', async () => {
    // 6 characters but 12 bytes; the limit of 10 lies between.
    expect(await run(['éééééé\nééééé\n'], 10)).to.deep.equal([new OversizeFrame(12, 10, 'éééééé'), 'ééééé']);
  });

  it('accepts a line of exactly maxLineBytes across chunks', async () => {
    expect(await run(['ééé', 'éé\n'], 10)).to.deep.equal(['ééééé']);
    expect(await run(['ééé', 'ééé\n'], 10)).to.deep.equal([new OversizeFrame(12, 10, 'ééé')]);
  });

  it('reports an oversize last line that has no newline', async () => {
    expect(await run(['{"a":1}\n', 'x'.repeat(30)], 20)).to.deep.equal(['{"a":1}', new OversizeFrame(30, 20, 'x'.repeat(30))]);
  });

  it('stops work when the subscriber unsubscribes', () => {
    let teardown = false;
    const src = new Observable<string>((s) => {
      s.next('a\nb\nc\n');
      return () => {
        teardown = true;
      };
    });
    const seen: (string | OversizeFrame)[] = [];
    src.pipe(ndjsonSplit(), take(1)).subscribe((x) => seen.push(x));
    expect(seen).to.deep.equal(['a']);
    expect(teardown).to.equal(true);
  });
});
