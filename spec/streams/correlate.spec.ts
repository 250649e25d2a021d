import { expect } from 'chai';
import { TestScheduler } from 'rxjs/testing';
import type { JsonRpcResponse } from '../../lib/jsonrpc/message.js';
import { correlate } from '../../streams/correlate.js';
import type { Inbound } from '../../streams/inbound.js';

const req: Inbound = { kind: 'request', msg: { jsonrpc: '2.0', id: 1, method: 'ping' } };
const note: Inbound = { kind: 'notification', msg: { jsonrpc: '2.0', method: 'notifications/x' } };
const resA: JsonRpcResponse = { jsonrpc: '2.0', id: 7, result: {} };
const resB: JsonRpcResponse = { jsonrpc: '2.0', id: 8, error: { code: -1, message: 'no' } };

describe('streams/correlate', () => {
  const scheduler = () => new TestScheduler((a, b) => {
    expect(a).to.deep.equal(b);
  });

  it('settles responses and passes everything else on, in order (marbles)', () => {
    const settled: JsonRpcResponse[] = [];
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold<Inbound>('a-b-c-d|', { a: req, b: { kind: 'response', msg: resA }, c: note, d: { kind: 'response', msg: resB } });
      expectObservable(source.pipe(correlate((r) => settled.push(r)))).toBe('a---c--|', { a: req, c: note });
    });
    expect(settled).to.deep.equal([resA, resB]);
  });

  it('takes the responses out of a batch and drops a batch that held only responses (marbles)', () => {
    const settled: JsonRpcResponse[] = [];
    scheduler().run(({ cold, expectObservable }) => {
      const mixed: Inbound = { kind: 'batch', items: [{ kind: 'response', msg: resA }, req as any, note as any] };
      const onlyResponses: Inbound = { kind: 'batch', items: [{ kind: 'response', msg: resB }] };
      const source = cold<Inbound>('a-b|', { a: mixed, b: onlyResponses });
      expectObservable(source.pipe(correlate((r) => settled.push(r)))).toBe('a--|', { a: { kind: 'batch', items: [req, note] } });
    });
    expect(settled).to.deep.equal([resA, resB]);
  });

  it('passes errors through (marbles)', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold<Inbound>('a-#', { a: note }).pipe(correlate(() => {}))).toBe('a-#', { a: note });
    });
  });
});
