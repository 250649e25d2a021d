import { expect } from 'chai';
import { from, lastValueFrom, toArray } from 'rxjs';
import { SseParser, sseParse, type SseItem } from '../../streams/sse-parse.js';

function parseChunks(chunks: (string | Uint8Array)[], maxEventChars?: number): SseItem[] {
  const out: SseItem[] = [];
  const p = new SseParser((i) => out.push(i), maxEventChars === undefined ? {} : { maxEventChars });
  for (const c of chunks) p.push(c);
  p.end();
  return out;
}

const events = (items: SseItem[]) => items.filter((i) => i.type === 'event');

const SAMPLE =
  ': keep-alive comment\r\n' +
  'id: 1\r\n' +
  'retry: 2500\r\n' +
  'data:\r\n\r\n' + // priming event: an id and empty data
  'event: message\n' +
  'id: 2\n' +
  'data: {"jsonrpc":"2.0",\n' +
  'data:"method":"notifications/progress"}\n\n' +
  'data: héllo ✓ 𝄞\r' + // CR line endings, non-ASCII across bytes
  '\r' +
  'event: endpoint\n' +
  'data:/messages?sessionId=abc\n\n' +
  'id: 3\0x\n' + // NUL: id ignored
  'data: after-nul\n' +
  'retry: soon\n' + // not digits: ignored
  'unknown: field\n' +
  'data\n\n' + // field without colon: empty data line
  'data: unterminated'; // no blank line: discarded

const EXPECTED: SseItem[] = [
  { type: 'retry', ms: 2500 },
  { type: 'event', event: 'message', data: '', lastEventId: '1', hasId: true },
  { type: 'event', event: 'message', data: '{"jsonrpc":"2.0",\n"method":"notifications/progress"}', lastEventId: '2', hasId: true },
  { type: 'event', event: 'message', data: 'héllo ✓ 𝄞', lastEventId: '2', hasId: false },
  { type: 'event', event: 'endpoint', data: '/messages?sessionId=abc', lastEventId: '2', hasId: false },
  { type: 'event', event: 'message', data: 'after-nul\n', lastEventId: '2', hasId: false },
];

describe('http client: sseParse (SSE framing)', () => {
  it('parses fields, multi-line data, ids, retry, comments, CRLF/CR/LF, and drops an unterminated event', () => {
    expect(parseChunks([SAMPLE])).to.deep.equal(EXPECTED);
  });

  it('gives the same events whatever the chunk boundaries (text split at every position)', () => {
    for (let i = 0; i <= SAMPLE.length; i++) {
      expect(parseChunks([SAMPLE.slice(0, i), SAMPLE.slice(i)]), `split at ${i}`).to.deep.equal(EXPECTED);
    }
  });

  it('gives the same events from bytes fed one at a time and split in three anywhere (UTF-8 sequences and CRLF cut)', () => {
    const bytes = new TextEncoder().encode(SAMPLE);
    expect(parseChunks([...bytes].map((b) => Uint8Array.of(b)))).to.deep.equal(EXPECTED);
    for (let i = 0; i < bytes.length; i += 7) {
      for (let j = i; j <= bytes.length; j += 11) {
        expect(parseChunks([bytes.slice(0, i), bytes.slice(i, j), bytes.slice(j)]), `split at ${i}/${j}`).to.deep.equal(EXPECTED);
      }
    }
  });

  it('strips a leading BOM (bytes and text) and keeps a later U+FEFF', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('data: \ufeffx\n\n')]);
    expect(events(parseChunks([bytes]))[0]).to.include({ data: '\ufeffx' });
    expect(events(parseChunks(['\ufeffdata: y\n\n']))[0]).to.include({ data: 'y' });
  });

  it('handles a CR at the end of one chunk and the LF at the start of the next as one line break', () => {
    expect(events(parseChunks(['data: a\r', '\ndata: b\r', '\n\r', '\n']))).to.deep.equal([
      { type: 'event', event: 'message', data: 'a\nb', lastEventId: '', hasId: false },
    ]);
  });

  it('keeps the last event id across events until the server changes it (an empty id resets it)', () => {
    const items = events(parseChunks(['id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\n']));
    expect(items.map((e) => e.type === 'event' && [e.lastEventId, e.hasId])).to.deep.equal([
      ['7', true],
      ['7', false],
      ['', true],
    ]);
  });

  it('removes only one space after the colon', () => {
    expect(events(parseChunks(['data:  two spaces\n\n']))[0]).to.include({ data: ' two spaces' });
  });

  it('reports an event larger than the limit as oversize and goes on with the next one', () => {
    const big = 'x'.repeat(100);
    const items = parseChunks([`data: ${big.slice(0, 40)}`, `${big.slice(40)}\ndata: more\n\n`, 'data: ok\n\n'], 50);
    expect(items[0]).to.deep.include({ type: 'oversize', limit: 50 });
    expect(items[1]).to.deep.include({ type: 'event', data: 'ok' });
    expect(items).to.have.length(2);
  });

  it('works as an RxJS operator', async () => {
    const items = await lastValueFrom(from(['id: 1\nda', 'ta: {"a":1}\n', '\n']).pipe(sseParse(), toArray()));
    expect(items).to.deep.equal([{ type: 'event', event: 'message', data: '{"a":1}', lastEventId: '1', hasId: true }]);
  });
});
