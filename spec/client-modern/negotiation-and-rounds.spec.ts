// The modern client against scripted servers (a memory pair): version negotiation both ways,
// multi round-trip requests, and the bad inputs a server can send, each a typed error after
// which the client stays usable.
import { expect } from 'chai';
import { Client, type InputRoundEvent } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { InputRoundsExceededError, MalformedResultTypeError, NoCommonVersionError, ServerExitedOnProbeError, UnsupportedInputRequestError } from '../../lib/client-modern/modern-client-errors.js';
import { createMemoryPair } from '../../streams/memory.js';

type Msg = { jsonrpc: '2.0'; id?: number | string; method?: string; params?: Record<string, any>; result?: unknown; error?: unknown };
const V = '2026-07-28';
const DISCOVER = { resultType: 'complete', supportedVersions: [V], capabilities: { tools: {}, prompts: {}, resources: {} }, ttlMs: 0, cacheScope: 'public', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'scripted', version: '1' } } };

/** A server that answers each request with `reply(msg)` (undefined: no answer). */
function scripted(reply: (msg: Msg) => Record<string, unknown> | undefined) {
  const [a, b] = createMemoryPair();
  const seen: Msg[] = [];
  b.inbound$.subscribe((raw) => {
    const msg = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Msg;
    seen.push(msg);
    if (msg.id === undefined) return;
    const answer = reply(msg);
    if (answer !== undefined) void b.send({ jsonrpc: '2.0', id: msg.id, ...answer } as never);
  });
  return { transport: a, seen, end: b };
}

const ok = (result: Record<string, unknown>) => ({ result });
const fail = (code: number, message: string, data?: unknown) => ({ error: data === undefined ? { code, message } : { code, message, data } });
const modernClient = (extra: Record<string, unknown> = {}) => new Client({ info: { name: 'spec', version: '1.0.0' }, era: 'auto', ...extra });

describe('client: finding the era and version (2026-07-28)', () => {
  it('[LIFE-108] a server that refuses the first request with -32022 gets one retry with a version from its supported list, and no initialize', async () => {
    let discovers = 0;
    const server = scripted((m) => (m.method === 'server/discover' ? (discovers++ === 0 ? fail(-32022, 'Unsupported protocol version', { supported: [V], requested: V }) : ok(DISCOVER)) : fail(-32601, 'nope')));
    const client = modernClient();
    await client.connect(server.transport);
    expect(client.era).to.equal('modern');
    expect(client.serverInfo).to.deep.equal({ name: 'scripted', version: '1' });
    const probes = server.seen.filter((m) => m.method === 'server/discover');
    expect(probes).to.have.length(2);
    expect(server.seen.some((m) => m.method === 'initialize')).to.equal(false);
    expect(probes[1]!.id).to.not.equal(probes[0]!.id);
    expect(probes[1]!.params!._meta['io.modelcontextprotocol/protocolVersion']).to.equal(V);
    await client.close();
  });

  it('[LIFE-108] [LIFE-115] a supported list with nothing in common rejects connect with NoCommonVersionError naming both sides', async () => {
    const server = scripted(() => fail(-32022, 'Unsupported protocol version', { supported: ['2099-01-01'], requested: V }));
    const client = modernClient();
    const error = await client.connect(server.transport).then(() => undefined, (e: unknown) => e);
    expect(error).to.be.instanceOf(NoCommonVersionError);
    expect((error as NoCommonVersionError).serverSupported).to.deep.equal(['2099-01-01']);
    expect((error as Error).message).to.contain('2099-01-01').and.contain(V);
    expect(server.seen.some((m) => m.method === 'initialize')).to.equal(false);
  });

  it('[STDIO-023] [STDIO-022] a legacy server (any other error to the probe) gets initialize and a session', async () => {
    const server = scripted((m) =>
      m.method === 'initialize'
        ? ok({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'old', version: '0' } })
        : m.method === 'tools/list'
          ? ok({ tools: [{ name: 't', inputSchema: { type: 'object' } }] })
          : fail(-32601, 'Method not found'),
    );
    const client = modernClient();
    await client.connect(server.transport);
    expect(client.era).to.equal('legacy');
    expect(client.protocolVersion).to.equal('2025-11-25');
    expect((await client.listTools()).map((t) => t.name)).to.deep.equal(['t']);
    // The probe, the ping that follows it (refused, as a modern server would: not legacy evidence), then initialize.
    expect(server.seen.map((m) => m.method).slice(0, 3)).to.deep.equal(['server/discover', 'ping', 'initialize']);
    expect(server.seen.find((m) => m.method === 'tools/list')!.params?._meta).to.equal(undefined);
    await client.close();
  });

  it('[STDIO-023] [STDIO-022] a legacy server that ignores server/discover but answers ping is legacy at once, without waiting for the probe timeout', async () => {
    const clock = new ManualClock();
    const server = scripted((m) =>
      m.method === 'initialize' ? ok({ protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'quiet', version: '0' } }) : m.method === 'ping' ? ok({}) : undefined,
    );
    const client = modernClient({ clock, probeTimeoutMs: 60_000 });
    await client.connect(server.transport);
    expect(client.era).to.equal('legacy');
    expect(clock.now()).to.equal(0);
    const ping = server.seen.find((m) => m.method === 'ping')!;
    // The ping names the modern version too: a dual-era server does not take it for a legacy opening.
    expect(ping.params!._meta['io.modelcontextprotocol/protocolVersion']).to.equal(V);
    // The probe's ids are strings no session request uses.
    expect(server.seen[0]!.id).to.be.a('string');
    expect(ping.id).to.be.a('string');
    await client.close();
  });

  it('[STDIO-023] a ping answered as a modern server would (resultType) is no legacy evidence: the probe answer decides', async () => {
    let answerDiscover: (() => void) | undefined;
    const [a, b] = createMemoryPair();
    b.inbound$.subscribe((raw) => {
      const msg = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Msg;
      if (msg.method === 'ping') void b.send({ jsonrpc: '2.0', id: msg.id, result: { resultType: 'complete' } } as never);
      if (msg.method === 'server/discover') answerDiscover = () => void b.send({ jsonrpc: '2.0', id: msg.id, result: DISCOVER } as never);
    });
    const client = modernClient();
    const connected = client.connect(a);
    await new Promise((r) => setImmediate(r));
    expect(client.era).to.equal(undefined);
    answerDiscover!();
    await connected;
    expect(client.era).to.equal('modern');
    await client.close();
  });

  it('[STDIO-023] a late answer to the probe after the fallback is not taken for the answer to a session request', async () => {
    const clock = new ManualClock();
    let late: (() => void) | undefined;
    const server = scripted((m) => {
      if (m.method === 'server/discover') {
        late = () => void server.end.send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'late' } } as never);
        return undefined;
      }
      if (m.method === 'initialize') return ok({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'slow', version: '0' } });
      if (m.method === 'tools/list') {
        late!();
        return ok({ tools: [{ name: 'after', inputSchema: { type: 'object' } }] });
      }
      return undefined;
    });
    const client = modernClient({ clock, probeTimeoutMs: 1000 });
    const connected = client.connect(server.transport);
    await new Promise((r) => setImmediate(r));
    clock.advance(1000);
    await connected;
    expect((await client.listTools()).map((t) => t.name)).to.deep.equal(['after']);
    await client.close();
  });

  it('[STDIO-023] a server that exits when probed rejects connect with ServerExitedOnProbeError, which says to use era legacy', async () => {
    const [a, b] = createMemoryPair();
    b.inbound$.subscribe(() => void b.close());
    const client = modernClient();
    const error = await client.connect(a).then(() => undefined, (e: unknown) => e);
    expect(error).to.be.instanceOf(ServerExitedOnProbeError);
    expect((error as Error).message).to.contain("era: 'legacy'");
  });

  it('[STDIO-023] a server that never answers the probe is legacy once probeTimeoutMs passes (simulated clock)', async () => {
    const clock = new ManualClock();
    const server = scripted((m) => (m.method === 'initialize' ? ok({ protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'mute', version: '0' } }) : undefined));
    const client = modernClient({ clock, probeTimeoutMs: 1000 });
    const connected = client.connect(server.transport);
    await new Promise((r) => setImmediate(r));
    expect(server.seen.map((m) => m.method)).to.deep.equal(['server/discover', 'ping']);
    clock.advance(1000);
    await connected;
    expect(client.era).to.equal('legacy');
    await client.close();
  });
});

describe('client: multi round-trip requests (2026-07-28)', () => {
  const tool = (m: Msg, onCall: (m: Msg) => Record<string, unknown>) => (m.method === 'server/discover' ? ok(DISCOVER) : m.method === 'tools/call' ? onCall(m) : fail(-32601, 'nope'));

  it('[MRTR-003] [MRTR-016] [MRTR-017] [TOOL-043] [MRTR-018] [MRTR-020] several input requests at once, answered by the elicitation and roots handlers; the retry has a new id, every response and the byte-exact requestState', async () => {
    const state = 'opaque+/= state ✓';
    const server = scripted((m) =>
      tool(m, (call) =>
        call.params!.inputResponses === undefined
          ? ok({
              resultType: 'input_required',
              inputRequests: {
                who: { method: 'elicitation/create', params: { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } } },
                where: { method: 'roots/list', params: {} },
              },
              requestState: state,
            })
          : ok({ resultType: 'complete', content: [{ type: 'text', text: JSON.stringify(call.params) }] }),
      ),
    );
    const client = modernClient();
    client.setRoots([{ uri: 'file:///tmp/project', name: 'project' }]);
    client.onElicitation({ form: async () => ({ action: 'accept', content: { name: 'Ada' } }) });
    const rounds: InputRoundEvent[] = [];
    client.inputRounds$.subscribe((e) => rounds.push(e));
    await client.connect(server.transport);
    const result = await client.callTool('greet', { x: 1 });
    // The rounds are visible as they happen; the call resolves with the final result only.
    expect(rounds).to.deep.equal([
      { method: 'tools/call', name: 'greet', state: 'answering', round: 1, inputRequests: [{ key: 'who', method: 'elicitation/create' }, { key: 'where', method: 'roots/list' }] },
      { method: 'tools/call', name: 'greet', state: 'sent', round: 1 },
      { method: 'tools/call', name: 'greet', state: 'complete', round: 1 },
    ]);
    const calls = server.seen.filter((m) => m.method === 'tools/call');
    expect(calls).to.have.length(2);
    expect(calls[1]!.id).to.not.equal(calls[0]!.id);
    expect(calls[0]!.params).to.not.have.property('requestState');
    expect(calls[1]!.params!.requestState).to.equal(state);
    expect(calls[1]!.params!.arguments).to.deep.equal({ x: 1 });
    expect(calls[1]!.params!.inputResponses).to.deep.equal({ who: { action: 'accept', content: { name: 'Ada' } }, where: { roots: [{ uri: 'file:///tmp/project', name: 'project' }] } });
    expect(calls[1]!.params!._meta['io.modelcontextprotocol/clientCapabilities']).to.deep.equal({ roots: {}, elicitation: { form: {} } });
    expect(result).to.not.have.property('inputRequests');
    expect((result as Record<string, unknown>).resultType).to.equal('complete');
    await client.close();
  });

  it('frames$ watched from before connect shows the probe and every round of a request, out and in', async () => {
    const server = scripted((m) =>
      tool(m, (call) =>
        call.params!.inputResponses === undefined
          ? ok({ resultType: 'input_required', inputRequests: { r: { method: 'roots/list', params: {} } }, requestState: 's1' })
          : ok({ resultType: 'complete', content: [] }),
      ),
    );
    const client = modernClient();
    client.setRoots([]);
    const seen: string[] = [];
    client.frames$.subscribe((f) => {
      const frame = f.frame as Msg;
      seen.push(`${f.direction} ${frame.method ?? (frame.result !== undefined ? `result ${(frame.result as { resultType?: string }).resultType}` : 'error')}`);
    });
    await client.connect(server.transport);
    await client.callTool('rooted');
    // On a byte stream a ping follows the probe (this server answers it -32601).
    expect(seen).to.deep.equal([
      'out server/discover',
      'out ping',
      'in result complete',
      'in error',
      'out tools/call',
      'in result input_required',
      'out tools/call',
      'in result complete',
    ]);
    await client.close();
  });

  it('[MRTR-019] a round without requestState is retried without one', async () => {
    const server = scripted((m) =>
      tool(m, (call) =>
        call.params!.inputResponses === undefined ? ok({ resultType: 'input_required', inputRequests: { r: { method: 'roots/list', params: {} } } }) : ok({ resultType: 'complete', content: [] }),
      ),
    );
    const client = modernClient();
    client.setRoots([]);
    await client.connect(server.transport);
    await client.callTool('stateless');
    const calls = server.seen.filter((m) => m.method === 'tools/call');
    expect(calls).to.have.length(2);
    expect(calls[1]!.params!.inputResponses).to.deep.equal({ r: { roots: [] } });
    expect(calls[1]!.params).to.not.have.property('requestState');
    await client.close();
  });

  it('[MRTR-021] the answers and requestState of one call go only into its own retry, never into calls running beside it', async () => {
    const server = scripted((m) =>
      tool(m, (call) => {
        const name = call.params!.name as string;
        if (name === 'asks' && call.params!.inputResponses === undefined) return ok({ resultType: 'input_required', inputRequests: { r: { method: 'roots/list', params: {} } }, requestState: 'state-of-asks' });
        return ok({ resultType: 'complete', content: [{ type: 'text', text: name }] });
      }),
    );
    const client = modernClient();
    client.setRoots([{ uri: 'file:///p', name: 'p' }]);
    await client.connect(server.transport);
    // While 'asks' is between its rounds, two other calls go out.
    const beside: Promise<unknown>[] = [];
    client.inputRounds$.subscribe((e) => {
      if (e.state === 'answering') beside.push(client.callTool('other', { n: 1 }), client.callTool('other', { n: 2 }));
    });
    await client.callTool('asks', {});
    expect(beside).to.have.length(2);
    await Promise.all(beside);
    const again = await client.callTool('other', { n: 3 });
    expect((again.content[0] as { text: string }).text).to.equal('other');
    const calls = server.seen.filter((m) => m.method === 'tools/call');
    const others = calls.filter((m) => m.params!.name === 'other');
    expect(others).to.have.length(3);
    for (const m of others) {
      expect(m.params).to.not.have.property('inputResponses');
      expect(m.params).to.not.have.property('requestState');
    }
    const retried = calls.filter((m) => m.params!.name === 'asks');
    expect(retried).to.have.length(2);
    expect(retried[1]!.params!.requestState).to.equal('state-of-asks');
    expect(retried[1]!.params!.inputResponses).to.deep.equal({ r: { roots: [{ uri: 'file:///p', name: 'p' }] } });
    await client.close();
  });

  it('an input_required loop that never ends fails with InputRoundsExceededError after maxInputRounds, and the client stays usable', async () => {
    const server = scripted((m) => tool(m, (call) => (call.params!.name === 'loop' ? ok({ resultType: 'input_required', requestState: 'again' }) : ok({ content: [] }))));
    const client = modernClient({ maxInputRounds: 3 });
    const rounds: InputRoundEvent[] = [];
    client.inputRounds$.subscribe((e) => rounds.push(e));
    await client.connect(server.transport);
    const error = await client.callTool('loop').then(() => undefined, (e: unknown) => e);
    expect(error).to.be.instanceOf(InputRoundsExceededError);
    expect(server.seen.filter((m) => m.method === 'tools/call')).to.have.length(4);
    expect(rounds.map((r) => `${r.state} ${r.round}`)).to.deep.equal(['answering 1', 'sent 1', 'answering 2', 'sent 2', 'answering 3', 'sent 3', 'exceeded 3']);
    expect(await client.callTool('fine')).to.deep.equal({ content: [] });
    // A call answered at once has no rounds to show.
    expect(rounds).to.have.length(7);
    await client.close();
  });

  it('an input request of a kind the client has no handler for is UnsupportedInputRequestError; nothing is retried', async () => {
    const server = scripted((m) => tool(m, () => ok({ resultType: 'input_required', inputRequests: { s: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } } } })));
    const client = modernClient();
    await client.connect(server.transport);
    const rounds: InputRoundEvent[] = [];
    client.inputRounds$.subscribe((e) => rounds.push(e));
    const error = await client.callTool('needs_sampling').then(() => undefined, (e: unknown) => e);
    expect(error).to.be.instanceOf(UnsupportedInputRequestError);
    expect(rounds.map((r) => `${r.state} ${r.round}`)).to.deep.equal(['failed 1']);
    expect((error as Error).message).to.contain('sampling/createMessage');
    expect(server.seen.filter((m) => m.method === 'tools/call')).to.have.length(1);
    await client.close();
  });

  it('[BASE-066] [BASE-067] a missing resultType is complete (no retry); an unknown one is MalformedResultTypeError', async () => {
    const server = scripted((m) => tool(m, (call) => (call.params!.name === 'old' ? ok({ content: [{ type: 'text', text: 'hi' }] }) : ok({ resultType: 'mystery', content: [] }))));
    const client = modernClient();
    await client.connect(server.transport);
    expect((await client.callTool('old')).content).to.have.length(1);
    expect(server.seen.filter((m) => m.method === 'tools/call')).to.have.length(1);
    const error = await client.callTool('new').then(() => undefined, (e: unknown) => e);
    expect(error).to.be.instanceOf(MalformedResultTypeError);
    await client.close();
  });

  it('log messages: the level goes in every request\'s _meta once asked for, and notifications/message reach logs$', async () => {
    const [a, b] = createMemoryPair();
    const seen: Msg[] = [];
    b.inbound$.subscribe((raw) => {
      const m = raw as Msg;
      seen.push(m);
      if (m.method === 'server/discover') void b.send({ jsonrpc: '2.0', id: m.id!, result: DISCOVER } as never);
      if (m.method === 'tools/call') {
        void b.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } } as never);
        void b.send({ jsonrpc: '2.0', id: m.id!, result: { resultType: 'complete', content: [] } } as never);
      }
    });
    const client = modernClient();
    await client.connect(a);
    const logs: unknown[] = [];
    client.logs$.subscribe((l) => logs.push(l.data));
    await client.callTool('quiet');
    expect(seen.find((m) => m.method === 'tools/call')!.params!._meta).to.not.have.property('io.modelcontextprotocol/logLevel');
    await client.setLoggingLevel('info');
    await client.callTool('chatty');
    expect(seen.filter((m) => m.method === 'tools/call')[1]!.params!._meta['io.modelcontextprotocol/logLevel']).to.equal('info');
    expect(seen.some((m) => m.method === 'logging/setLevel')).to.equal(false);
    expect(logs).to.include('working');
    await client.close();
  });
});
