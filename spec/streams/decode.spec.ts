import { expect } from 'chai';
import sinon from 'sinon';
import { Subject } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { oversizeInbound } from '../../lib/jsonrpc/codec.js';
import { ErrorCode } from '../../lib/jsonrpc/error-codes.js';
import { decode } from '../../streams/decode.js';
import type { Inbound, InvalidInbound } from '../../streams/inbound.js';
import { OversizeFrame, type RawFrame } from '../../streams/transport.js';

function parseMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`${text} parsed`);
}

describe('streams/decode', () => {
  it('decodes text, markers and parsed values (marbles)', () => {
    const scheduler = new TestScheduler((a, e) => {
      expect(a).to.deep.equal(e);
    });
    const value = { jsonrpc: '2.0', method: 'n' };
    scheduler.run(({ cold, expectObservable }) => {
      const src = cold<RawFrame>('-a-b-c-d|', {
        a: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
        b: new OversizeFrame(9000, 100),
        c: value,
        d: '{oops',
      });
      expectObservable(src.pipe(decode({ allowBatch: () => false }))).toBe('-a-b-c-d|', {
        a: { kind: 'request', msg: { jsonrpc: '2.0', id: 1, method: 'ping' } },
        b: oversizeInbound(9000, 100),
        c: { kind: 'notification', msg: value },
        d: {
          kind: 'invalid',
          id: null,
          respond: true,
          error: { code: ErrorCode.ParseError, message: `Parse error: invalid JSON (${parseMessage('{oops')})` },
        },
      });
    });
  });

  it('applies maxFrameBytes to text', () => {
    const out: Inbound[] = [];
    const src = new Subject<RawFrame>();
    src.pipe(decode({ maxFrameBytes: 16, allowBatch: () => false })).subscribe((x) => out.push(x));
    src.next('{"jsonrpc":"2.0","method":"notifications/x"}');
    expect(out[0]).to.deep.equal(oversizeInbound(44, 16));
  });

  it('hands parsed values on as the same object', () => {
    const out: Inbound[] = [];
    const msg = { jsonrpc: '2.0', id: 1, result: { _meta: { a: 1 } } };
    const src = new Subject<RawFrame>();
    src.pipe(decode({ allowBatch: () => false })).subscribe((x) => out.push(x));
    src.next(msg);
    expect(out[0]!.kind).to.equal('response');
    expect((out[0] as { msg: unknown }).msg).to.equal(msg);
  });

  it('asks allowBatch when a batch arrives, so negotiation mid-stream takes effect', () => {
    let negotiated = false;
    const allowBatch = sinon.spy(() => negotiated);
    const out: Inbound[] = [];
    const src = new Subject<RawFrame>();
    src.pipe(decode({ allowBatch })).subscribe((x) => out.push(x));
    const batch = '[{"jsonrpc":"2.0","id":1,"method":"ping"}]';
    src.next('{"jsonrpc":"2.0","id":0,"method":"ping"}');
    expect(allowBatch.callCount).to.equal(0);
    src.next(batch);
    negotiated = true;
    src.next(batch);
    src.next([{ jsonrpc: '2.0', method: 'n' }]);
    expect(allowBatch.callCount).to.equal(3);
    expect(out.map((x) => x.kind)).to.deep.equal(['request', 'invalid', 'batch', 'batch']);
    expect((out[1] as InvalidInbound).error.message).to.contain('2025-03-26');
  });
});
