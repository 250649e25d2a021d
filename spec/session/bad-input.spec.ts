import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { Server } from '../../lib/server.js';
import type { Diagnostic } from '../../lib/session/session.js';
import { OversizeFrame } from '../../streams/transport.js';
import { CLIENT_INFO, RawPeer, SERVER_INFO, initializeRaw, settle } from '../helpers/raw-peer.js';

/** A server session driven by a raw peer, initialized, with a slow tool and diagnostics recorded. */
async function server(opts: { maxFrameBytes?: number } = {}) {
  const peer = new RawPeer();
  const s = new Server({ info: SERVER_INFO, capabilities: { tools: {} }, ...opts });
  const gates: (() => void)[] = [];
  s.onRequest('tools/call', () => new Promise((r) => gates.push(() => r({ content: [] }))));
  s.onRequest('tools/list', () => ({ tools: [] }));
  const session = await s.connect(peer.transport);
  const diags: Diagnostic[] = [];
  session.diagnostics$.subscribe((d) => diags.push(d));
  await initializeRaw(peer);
  /** The session is still up: a ping gets its answer. */
  const stillUp = async () => {
    const id = `ping-${Math.random()}`;
    peer.send({ jsonrpc: '2.0', id, method: 'ping' });
    expect((await peer.response(id)).result).to.deep.equal({});
    expect(session.currentPhase).to.equal('operating');
  };
  return { peer, session, gates, diags, stillUp };
}

const errorsIn = (peer: RawPeer) => peer.received.filter((f) => f && f.error);

describe('bad input', () => {
  it('[BASE-002] [BASE-048] a malformed JSON line gets -32700 with id null', async () => {
    const { peer, stillUp } = await server();
    peer.send('{"jsonrpc":"2.0","id":1,"method":');
    const res = await peer.next((f) => f.error);
    expect(res).to.deep.include({ id: null });
    expect(res.error.code).to.equal(-32700);
    await stillUp();
  });

  it('JSON that is not JSON-RPC gets -32600', async () => {
    const { peer, stillUp } = await server();
    peer.send('{"hello":"world"}');
    peer.send('42');
    await settle();
    expect(errorsIn(peer).map((f) => f.error.code)).to.deep.equal([-32600, -32600]);
    await stillUp();
  });

  it('[BASE-003] [BASE-004] id: null gets -32600 explaining ids', async () => {
    const { peer, stillUp } = await server();
    peer.send({ jsonrpc: '2.0', id: null, method: 'tools/list' });
    const res = await peer.next((f) => f.error);
    expect(res.error.code).to.equal(-32600);
    expect(res.error.message).to.match(/string or an integer/);
    await stillUp();
  });

  it('[BASE-005] a duplicate id of a request still in flight gets -32600; the first still completes', async () => {
    const { peer, gates, stillUp } = await server();
    peer.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'x' } });
    peer.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'x' } });
    const dup = await peer.next((f) => f.id === 5 && f.error);
    expect(dup.error.code).to.equal(-32600);
    expect(dup.error.message).to.match(/Duplicate request id 5/);
    gates[0]!();
    const ok = await peer.next((f) => f.id === 5 && f.result);
    expect(ok.result).to.deep.equal({ content: [] });
    expect(gates).to.have.length(1);
    await stillUp();
  });

  it('a response to an unknown id is ignored', async () => {
    const { peer, diags, stillUp } = await server();
    peer.send({ jsonrpc: '2.0', id: 'never-sent', result: {} });
    await stillUp();
    expect(diags.map((d) => d.kind)).to.include('unknown-response');
    expect(errorsIn(peer)).to.have.length(0);
  });

  it('[BASE-012] a notification carrying an id gets -32600', async () => {
    const { peer, stillUp } = await server();
    peer.send({ jsonrpc: '2.0', id: 3, method: 'notifications/initialized' });
    const res = await peer.response(3);
    expect(res.error.code).to.equal(-32600);
    expect(res.error.message).to.match(/notification/);
    await stillUp();
  });

  it('a frame over the size limit gets a clear error naming both sizes', async () => {
    const { peer, stillUp } = await server({ maxFrameBytes: 1000 });
    peer.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { pad: 'x'.repeat(2000) } }));
    peer.send(new OversizeFrame(5000, 1000));
    await settle();
    const errs = errorsIn(peer);
    expect(errs).to.have.length(2);
    expect(errs[0].error.code).to.equal(-32600);
    expect(errs[0].error.message).to.contain('1000');
    expect(errs[0].error.data.limit).to.equal(1000);
    expect(errs[1].error.data).to.deep.equal({ size: 5000, limit: 1000 });
    await stillUp();
  });

  it('an unknown method gets -32601', async () => {
    const { peer, stillUp } = await server();
    peer.send({ jsonrpc: '2.0', id: 'u', method: 'does/not/exist' });
    expect((await peer.response('u')).error.code).to.equal(-32601);
    await stillUp();
  });

  it('array params (structured, but MCP params are named) get -32602', async () => {
    const { peer, stillUp } = await server();
    peer.send({ jsonrpc: '2.0', id: 'p', method: 'tools/list', params: [1, 2] });
    expect((await peer.response('p')).error.code).to.equal(-32602);
    await stillUp();
  });

  it('[BASE-002] params that are not structured (string, number, boolean, null) get -32600 under the request id', async () => {
    const { peer, stillUp } = await server();
    const cases: unknown[] = ['x', 3, true, null];
    cases.forEach((params, i) => peer.send({ jsonrpc: '2.0', id: `s${i}`, method: 'tools/list', params }));
    for (let i = 0; i < cases.length; i++) {
      const res = await peer.response(`s${i}`);
      expect(res.error.code, JSON.stringify(cases[i])).to.equal(-32600);
      expect(res.error.message).to.match(/"params".*structured/);
    }
    await stillUp();
  });

  it('[BASE-011] a notification with string params is not answered, and is reported on diagnostics$ as an Invalid Request', async () => {
    const { peer, diags, stillUp } = await server();
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: 'x' });
    await stillUp();
    expect(errorsIn(peer)).to.have.length(0);
    const seen = diags.filter((d) => d.kind === 'invalid-frame');
    expect(seen.map((d) => d.message)).to.have.length(1);
    expect(seen[0]!.message).to.match(/Invalid Request: "params" of "notifications\/cancelled"/);
  });

  it('a client ignores non-JSON text from its server (diagnostic, no reply) and stays up', async () => {
    const peer = new RawPeer();
    const client = new Client({ era: 'legacy', info: CLIENT_INFO });
    const diags: Diagnostic[] = [];
    client.diagnostics$.subscribe((d) => diags.push(d));
    const connecting = client.connect(peer.transport);
    const init = await peer.next((f) => f.method === 'initialize');
    peer.send('Server starting up... (a stray log line)');
    peer.send({ jsonrpc: '2.0', id: init.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: SERVER_INFO } });
    await connecting;
    expect(diags.map((d) => d.kind)).to.include('invalid-frame');
    expect(errorsIn(peer)).to.have.length(0);
    expect(client.currentPhase).to.equal('operating');
  });

  it('an error response with id null (the peer could not read us) is noted, not fatal', async () => {
    const { peer, diags, stillUp } = await server();
    peer.send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    await stillUp();
    expect(diags.map((d) => d.kind)).to.include('unknown-response');
  });
});

describe('bad input: lifecycle and utilities', () => {
  it('[LIFE-059] initialize inside a batch is refused', async () => {
    const peer = new RawPeer();
    const server = new Server({ info: SERVER_INFO, supportedVersions: ['2025-03-26'] });
    const session = await server.connect(peer.transport);
    await initializeRaw(peer, '2025-03-26');
    peer.send([{ jsonrpc: '2.0', id: 'again', method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: CLIENT_INFO } }]);
    const batch = await peer.next(Array.isArray);
    expect(batch[0].error.code).to.equal(-32600);
    expect(batch[0].error.message).to.match(/batch/);
    expect(session.currentPhase).to.equal('operating');
  });

  it('[CANCEL-013] a malformed cancellation is ignored', async () => {
    const { peer, gates, stillUp } = await server();
    peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } });
    await settle();
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: { nested: true } } });
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled' });
    await stillUp();
    gates[0]!();
    const res = await peer.response(1);
    expect(res.result).to.deep.equal({ content: [] });
  });

  it('[PROG-009] progress stops once the request is answered', async () => {
    const peer = new RawPeer();
    const s = new Server({ info: SERVER_INFO, capabilities: { tools: {} } });
    let later: (() => void) | undefined;
    s.onRequest('tools/call', (_p, ctx) => {
      ctx.sendProgress(1);
      later = () => ctx.sendProgress(2);
      return {};
    });
    await s.connect(peer.transport);
    await initializeRaw(peer);
    peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', _meta: { progressToken: 'p' } } });
    await peer.response(1);
    later!();
    await settle();
    expect(peer.received.filter((f) => f.method === 'notifications/progress').map((f) => f.params.progress)).to.deep.equal([1]);
  });
});

describe('notifications and cancellation reasons', () => {
  it('[BASE-011] a notification is never answered, whatever is wrong with it', async () => {
    const { peer, stillUp } = await server();
    peer.send({ jsonrpc: '2.0', method: 'notifications/unknown-thing' });
    peer.send({ jsonrpc: '2.0', method: 'notifications/progress', params: [1] });
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: 'x' });
    await stillUp();
    expect(peer.received.filter((f) => f.error)).to.have.length(0);
  });

  it('[CANCEL-009] both sides log cancellation reasons on diagnostics$', async () => {
    const { peer, session, stillUp } = await server();
    const diags: Diagnostic[] = [];
    session.diagnostics$.subscribe((d) => diags.push(d));
    peer.send({ jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: { name: 'x' } });
    await settle();
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c1', reason: 'user hit stop' } });
    await stillUp();
    const theirs = diags.find((d) => d.kind === 'cancelled');
    expect(theirs?.message).to.contain('user hit stop').and.contain('tools/call');

    const ac = new AbortController();
    const ours = session.request('custom/thing', {}, { signal: ac.signal }).catch(() => {});
    ac.abort('no longer needed');
    await ours;
    expect(diags.filter((d) => d.kind === 'cancelled').map((d) => d.message).join('\n')).to.contain('no longer needed');
  });
});
