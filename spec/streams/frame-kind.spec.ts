import { expect } from 'chai';
import { TestScheduler } from 'rxjs/testing';
import { isKind, ofKind } from '../../streams/frame-kind.js';
import type { Inbound } from '../../streams/inbound.js';

const req: Inbound = { kind: 'request', msg: { jsonrpc: '2.0', id: 1, method: 'ping' } };
const note: Inbound = { kind: 'notification', msg: { jsonrpc: '2.0', method: 'n' } };
const res: Inbound = { kind: 'response', msg: { jsonrpc: '2.0', id: 1, result: {} } };
const bad: Inbound = { kind: 'invalid', id: null, respond: true, error: { code: -32600, message: 'x' } };
const batch: Inbound = { kind: 'batch', items: [req, note] };

describe('streams/classify', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = new TestScheduler((a, e) => {
      expect(a).to.deep.equal(e);
    });
  });

  it('ofKind keeps one kind', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const src = cold<Inbound>('abcde|', { a: req, b: note, c: res, d: bad, e: batch });
      // The type narrows: msg.id exists only on requests.
      expectObservable(src.pipe(ofKind('request'))).toBe('a----|', { a: req });
      expectObservable(src.pipe(ofKind('batch'))).toBe('----e|', { e: batch });
    });
  });

  it('ofKind keeps several kinds', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const src = cold<Inbound>('abcde|', { a: req, b: note, c: res, d: bad, e: batch });
      expectObservable(src.pipe(ofKind('response', 'invalid'))).toBe('--cd-|', { c: res, d: bad });
    });
  });

  it('isKind is a type guard', () => {
    const guard = isKind('notification');
    const kept = [req, note, res].filter(guard);
    expect(kept).to.deep.equal([note]);
    expect(kept[0]!.msg.method).to.equal('n');
    expect(isKind('request', 'response')(res)).to.equal(true);
    expect(isKind('request', 'response')(note)).to.equal(false);
  });
});
