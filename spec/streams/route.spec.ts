import { expect } from 'chai';
import { lastValueFrom, of, Subject, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../../lib/jsonrpc/message.js';
import type { Routable } from '../../streams/correlate.js';
import { route, type Routes } from '../../streams/route.js';

const request = (id: number, method = 'ping'): Routable => ({ kind: 'request', msg: { jsonrpc: '2.0', id, method } });
const notification = (method: string): Routable => ({ kind: 'notification', msg: { jsonrpc: '2.0', method } });
const ok = (id: number | string): JsonRpcResponse => ({ jsonrpc: '2.0', id, result: {} });

function routes(seen: string[], slow = new Set<number>()): Routes {
  return {
    request: (msg: JsonRpcRequest) => {
      seen.push(`request ${msg.method}`);
      return slow.has(msg.id as number) ? Promise.resolve(ok(msg.id)) : ok(msg.id);
    },
    notification: (msg: JsonRpcNotification) => void seen.push(`notification ${msg.method}`),
    invalid: (item) => (item.respond ? { jsonrpc: '2.0', id: item.id, error: item.error } : undefined),
  };
}

describe('streams/route', () => {
  it('answers requests, routes notifications, answers invalid frames when asked (marbles)', () => {
    const seen: string[] = [];
    new TestScheduler((a, b) => {
    expect(a).to.deep.equal(b);
  }).run(({ cold, expectObservable }) => {
      const bad: Routable = { kind: 'invalid', error: { code: -32600, message: 'bad' }, id: null, respond: true };
      const quiet: Routable = { kind: 'invalid', error: { code: -32600, message: 'bad' }, id: null, respond: false };
      const source = cold<Routable>('a-b-c-d|', { a: request(1), b: notification('notifications/x'), c: bad, d: quiet });
      expectObservable(source.pipe(route(routes(seen)))).toBe('a---c--|', {
        a: ok(1),
        c: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'bad' } },
      });
    });
    expect(seen).to.deep.equal(['request ping', 'notification notifications/x']);
  });

  it('answers a batch with one batch, in request order, even when some answers come later', async () => {
    const seen: string[] = [];
    const batch: Routable = { kind: 'batch', items: [request(1) as any, notification('n') as any, request(2) as any, request(3) as any] };
    const out = await lastValueFrom(of(batch).pipe(route(routes(seen, new Set([1]))), toArray()));
    expect(out).to.deep.equal([[ok(1), ok(2), ok(3)]]);
  });

  it('sends nothing for a batch of notifications', async () => {
    const out = await lastValueFrom(of<Routable>({ kind: 'batch', items: [notification('a') as any] }).pipe(route(routes([])), toArray()));
    expect(out).to.deep.equal([]);
  });

  it('emits late answers when they are ready and completes only after the last one', async () => {
    const source = new Subject<Routable>();
    let release!: (r: JsonRpcResponse) => void;
    const r: Routes = {
      request: (msg) => (msg.id === 1 ? new Promise<JsonRpcResponse>((res) => (release = res)) : ok(msg.id)),
      notification: () => {},
      invalid: () => undefined,
    };
    const out: unknown[] = [];
    let completed = false;
    source.pipe(route(r)).subscribe({ next: (x) => out.push(x), complete: () => (completed = true) });
    source.next(request(1));
    source.next(request(2));
    source.complete();
    expect(out).to.deep.equal([ok(2)]);
    expect(completed).to.equal(false);
    release(ok(1));
    await Promise.resolve();
    await Promise.resolve();
    expect(out).to.deep.equal([ok(2), ok(1)]);
    expect(completed).to.equal(true);
  });

  it('sends nothing for a request whose handler answers undefined (a cancelled request)', async () => {
    const r: Routes = { request: () => Promise.resolve(undefined), notification: () => {}, invalid: () => undefined };
    expect(await lastValueFrom(of(request(1)).pipe(route(r), toArray()))).to.deep.equal([]);
  });
});
