import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { Server } from '../../lib/server.js';
import { CapabilityError, PhaseError, VersionMismatchError } from '../../lib/errors.js';
import { createMemoryPair } from '../../streams/memory.js';
import { CLIENT_INFO, RawPeer, SERVER_INFO, initializeRaw, settle } from '../helpers/raw-peer.js';

const REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

async function pair(clientOpts: object = {}, serverOpts: object = {}) {
  const [a, b] = createMemoryPair();
  const server = new Server({ info: SERVER_INFO, capabilities: { tools: {} }, instructions: 'Be nice', ...serverOpts });
  const session = await server.connect(a);
  const client = new Client({ era: 'legacy', info: CLIENT_INFO, capabilities: { roots: {} }, journal: true, ...clientOpts });
  await client.connect(b);
  await session.whenOperating();
  return { client, server, session };
}

describe('lifecycle', () => {
  it('[LIFE-001] [LIFE-002] [LIFE-003] [LIFE-004] [LIFE-005] [LIFE-010] [BASE-001] initializes: client offers the latest revision, both sides know each other', async () => {
    const { client, session } = await pair();
    expect(client.protocolVersion).to.equal('2025-11-25');
    expect(session.protocolVersion).to.equal('2025-11-25');
    expect(client.serverInfo).to.deep.equal(SERVER_INFO);
    expect(client.serverCapabilities).to.deep.equal({ tools: {} });
    expect(client.instructions).to.equal('Be nice');
    expect(session.peerInfo).to.deep.equal(CLIENT_INFO);
    expect(session.peerCapabilities).to.deep.equal({ roots: {} });
    expect(client.currentPhase).to.equal('operating');
    expect(session.currentPhase).to.equal('operating');
  });

  it('[LIFE-006] sends initialize, then after the result notifications/initialized, in that order', async () => {
    const { client } = await pair();
    const frames = client.journal!.entries.filter((e) => e.kind === 'in' || e.kind === 'out') as any[];
    expect(frames.map((e) => `${e.kind}:${e.frame.method ?? 'result'}`)).to.deep.equal([
      'out:initialize',
      'in:result',
      'out:notifications/initialized',
    ]);
    expect(frames[0].frame.params.protocolVersion).to.equal('2025-11-25');
    expect(frames[0].frame.params.clientInfo).to.deep.equal(CLIENT_INFO);
  });

  for (const rev of REVISIONS) {
    it(`[LIFE-009] [LIFE-011] [LIFE-016] [LIFE-043] [LIFE-106] negotiates ${rev} when that is what the client speaks`, async () => {
      const { client, session } = await pair({ supportedVersions: [rev] });
      expect(client.protocolVersion).to.equal(rev);
      expect(session.protocolVersion).to.equal(rev);
      expect(client.journal!.revision).to.equal(rev);
    });
  }

  it('[LIFE-012] [LIFE-013] server answers its latest revision when the requested one is unknown', async () => {
    const peer = new RawPeer();
    const server = new Server({ info: SERVER_INFO, supportedVersions: ['2025-06-18', '2025-03-26'] });
    await server.connect(peer.transport);
    peer.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '1999-01-01', capabilities: {}, clientInfo: CLIENT_INFO } });
    const res = await peer.response(1);
    expect(res.result.protocolVersion).to.equal('2025-06-18');
  });

  it('[LIFE-014] [LIFE-025] client disconnects with an error naming both sides when it cannot speak the answer', async () => {
    const [a, b] = createMemoryPair();
    const server = new Server({ info: SERVER_INFO, supportedVersions: ['2024-11-05'] });
    await server.connect(a);
    const client = new Client({ era: 'legacy', info: CLIENT_INFO, supportedVersions: ['2025-11-25', '2025-06-18'] });
    const err = await client.connect(b).then(() => null, (e) => e);
    expect(err).to.be.instanceOf(VersionMismatchError);
    expect(err.message).to.contain('2025-11-25, 2025-06-18').and.contain('2024-11-05');
    expect(client.currentPhase).to.equal('failed');
    await settle();
    const states: string[] = [];
    b.state$.subscribe((s) => states.push(s.phase));
    expect(states.at(-1)).to.equal('closed');
  });

  it('[LIFE-007] client sends only ping before the initialize result', async () => {
    const peer = new RawPeer();
    const client = new Client({ era: 'legacy', info: CLIENT_INFO });
    const connecting = client.connect(peer.transport);
    const init = await peer.next((f) => f.method === 'initialize');
    expect(client.currentPhase).to.equal('initializing');
    const err = await client.request('tools/list').then(() => null, (e) => e);
    expect(err).to.be.instanceOf(PhaseError);
    const pinging = client.ping();
    const ping = await peer.next((f) => f.method === 'ping');
    peer.send({ jsonrpc: '2.0', id: ping.id, result: {} });
    await pinging;
    peer.send({ jsonrpc: '2.0', id: init.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: SERVER_INFO } });
    await connecting;
    expect(peer.received.filter((f) => f.method === 'tools/list')).to.have.length(0);
  });

  it('[LIFE-008] server sends only ping and logging before initialized', async () => {
    const peer = new RawPeer();
    const server = new Server({ info: SERVER_INFO, capabilities: { logging: {} } });
    const session = await server.connect(peer.transport);
    peer.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { sampling: {} }, clientInfo: CLIENT_INFO } });
    await peer.response(1);
    expect(session.currentPhase).to.equal('awaitingInitialized');
    const err = await session.request('sampling/createMessage', { messages: [], maxTokens: 1 }).then(() => null, (e) => e);
    expect(err).to.be.instanceOf(PhaseError);
    session.notify('notifications/message', { level: 'info', data: 'hello' });
    expect(() => session.notify('notifications/tools/list_changed')).to.throw(PhaseError);
    await peer.next((f) => f.method === 'notifications/message');
    peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await settle();
    expect(session.currentPhase).to.equal('operating');
  });

  it('server answers a request before initialize with -32600 and stays up', async () => {
    const peer = new RawPeer();
    const server = new Server({ info: SERVER_INFO, capabilities: { tools: {} } });
    server.onRequest('tools/list', () => ({ tools: [] }));
    const session = await server.connect(peer.transport);
    peer.send({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
    const res = await peer.response(7);
    expect(res.error.code).to.equal(-32600);
    expect(res.error.message).to.match(/before initialize/);
    peer.send({ jsonrpc: '2.0', id: 8, method: 'ping' });
    expect((await peer.response(8)).result).to.deep.equal({});
    await initializeRaw(peer);
    expect(session.currentPhase).to.equal('operating');
  });

  it('a second initialize is refused', async () => {
    const peer = new RawPeer();
    const server = new Server({ info: SERVER_INFO });
    await server.connect(peer.transport);
    await initializeRaw(peer);
    peer.send({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO } });
    const res = await peer.response(2);
    expect(res.error.code).to.equal(-32600);
  });

  it('initialize with bad params gets -32602 naming the field', async () => {
    const peer = new RawPeer();
    const server = new Server({ info: SERVER_INFO });
    const session = await server.connect(peer.transport);
    peer.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 5, capabilities: {}, clientInfo: CLIENT_INFO } });
    const res = await peer.response(1);
    expect(res.error.code).to.equal(-32602);
    expect(res.error.message).to.contain('protocolVersion');
    expect(session.currentPhase).to.equal('awaitingInitialize');
  });

  it('[LIFE-017] [LIFE-044] [LIFE-026] a request for a capability the peer did not declare fails fast on the sender', async () => {
    const { client } = await pair({}, { capabilities: {} });
    const before = client.journal!.entries.length;
    const err = await client.request('tools/list').then(() => null, (e) => e);
    expect(err).to.be.instanceOf(CapabilityError);
    expect(err.message).to.contain('tools');
    expect(client.journal!.entries.slice(before).filter((e) => e.kind === 'out')).to.have.length(0);
  });

  it('[LIFE-017] an incoming request for a capability we did not declare gets -32601', async () => {
    const { client } = await pair({ enforceCapabilities: false }, { capabilities: {} });
    const err = await client.request('resources/list').then(() => null, (e) => e);
    expect(err.code).to.equal(-32601);
    expect(err.message).to.contain('resources');
  });

  it('[PROMPT-013] prompts follow the negotiation both ways: the client does not ask a server without prompts, the server refuses prompts it did not declare', async () => {
    const { client } = await pair({}, { capabilities: { tools: {} } });
    const before = client.journal!.entries.length;
    const asked = await client.request('prompts/list').then(() => null, (e) => e);
    expect(asked).to.be.instanceOf(CapabilityError);
    expect(asked.message).to.contain('prompts');
    expect(client.journal!.entries.slice(before).filter((e) => e.kind === 'out')).to.have.length(0);
    const { client: pushy } = await pair({ enforceCapabilities: false }, { capabilities: { tools: {} } });
    const refused = await pushy.request('prompts/get', { name: 'x' }).then(() => null, (e) => e);
    expect(refused.code).to.equal(-32601);
    expect(refused.message).to.contain('prompts');
  });

  it('state$ shows every phase the client went through', async () => {
    const [a, b] = createMemoryPair();
    const server = new Server({ info: SERVER_INFO });
    await server.connect(a);
    const client = new Client({ era: 'legacy', info: CLIENT_INFO });
    const phases: string[] = [];
    client.state$.subscribe((s) => phases.push(String(s.value)));
    await client.connect(b);
    await client.close();
    await settle();
    expect([...new Set(phases)]).to.deep.equal(['connecting', 'initializing', 'operating', 'closing', 'closed']);
  });

  it('close rejects pending requests with a connection error', async () => {
    const { client, server } = await pair();
    server.onRequest('tools/call', () => new Promise(() => {}));
    const pending = client.request('tools/call', { name: 'x' });
    await settle();
    await client.close();
    const err = await pending.then(() => null, (e) => e);
    expect(err.name).to.equal('ConnectionClosedError');
    expect(err.message).to.contain('tools/call');
  });
});

describe('batches', () => {
  async function rawServer(rev: string) {
    const peer = new RawPeer();
    const server = new Server({ info: SERVER_INFO, capabilities: { tools: {} } });
    server.onRequest('tools/list', () => ({ tools: [] }));
    await server.connect(peer.transport);
    await initializeRaw(peer, rev);
    return peer;
  }

  it('[BASE-045] answers a batch with a batch when 2025-03-26 is negotiated', async () => {
    const peer = await rawServer('2025-03-26');
    peer.send([
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/whatever' },
      { jsonrpc: '2.0', id: 'b', method: 'tools/list' },
      { jsonrpc: '2.0', id: 'c', method: 'nope' },
    ]);
    const batch = await peer.next(Array.isArray);
    expect(batch.map((r: any) => r.id)).to.deep.equal(['a', 'b', 'c']);
    expect(batch[1].result).to.deep.equal({ tools: [] });
    expect(batch[2].error.code).to.equal(-32601);
  });

  for (const rev of ['2024-11-05', '2025-06-18', '2025-11-25']) {
    it(`refuses a batch with -32600 on ${rev}`, async () => {
      const peer = await rawServer(rev);
      peer.send([{ jsonrpc: '2.0', id: 'a', method: 'ping' }]);
      const res = await peer.next((f) => !Array.isArray(f) && f.error);
      expect(res.error.code).to.equal(-32600);
      expect(res.id).to.equal(null);
      peer.send({ jsonrpc: '2.0', id: 'after', method: 'ping' });
      expect((await peer.response('after')).result).to.deep.equal({});
    });
  }
});

describe('declared capabilities', () => {
  it('capabilities declared after construction reach the peer in initialize (client and server)', async () => {
    const [a, b] = createMemoryPair();
    const server = new Server({ info: SERVER_INFO, capabilities: { logging: {} } });
    server.declareCapabilities({ tools: { listChanged: true } });
    const session = await server.connect(a);
    const client = new Client({ era: 'legacy', info: CLIENT_INFO, capabilities: { roots: {} } });
    client.declareCapabilities({ roots: { listChanged: true }, sampling: {} });
    await client.connect(b);
    await session.whenOperating();
    expect(client.serverCapabilities).to.deep.equal({ logging: {}, tools: { listChanged: true } });
    expect(session.peerCapabilities).to.deep.equal({ roots: { listChanged: true }, sampling: {} });
    expect(() => client.declareCapabilities({ elicitation: {} })).to.throw(PhaseError);
  });
});

describe('inspection', () => {
  it('with an inspector the session runs as a live actor the inspector sees, and works the same', async () => {
    const [a, b] = createMemoryPair();
    const server = new Server({ info: SERVER_INFO });
    await server.connect(a);
    const seen: string[] = [];
    const client = new Client({
      era: 'legacy',
      info: CLIENT_INFO,
      inspect: (e: any) => {
        if (e.type === '@xstate.event') seen.push(e.event.type);
      },
    });
    await client.connect(b);
    await client.ping();
    await client.close();
    expect(seen).to.include.members(['TRANSPORT_OPEN', 'INITIALIZE_RESULT', 'CLOSE']);
    expect(client.currentPhase).to.equal('closed');
  });
});

describe('transport state', () => {
  it('transportState$ shows the transport phases under the session', async () => {
    const [a, b] = createMemoryPair();
    await new Server({ info: SERVER_INFO }).connect(a);
    const client = new Client({ era: 'legacy', info: CLIENT_INFO });
    const before: string[] = [];
    client.transportState$.subscribe({ next: (s) => before.push(s.phase) });
    expect(before).to.deep.equal([]);
    await client.connect(b);
    const phases: string[] = [];
    client.transportState$.subscribe((s) => phases.push(s.phase));
    await client.close();
    expect(phases).to.deep.equal(['open', 'closed']);
  });
});
