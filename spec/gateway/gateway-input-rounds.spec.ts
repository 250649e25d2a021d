// A legacy upstream asks for input (elicitation, sampling) while a 2026-07-28 caller's tools/call
// is in flight through the gateway (issue 30). The caller answers in input rounds: each ends its
// request input_required, and its retry runs the gateway's handler again. The upstream call must
// go on across the rounds (run once, its first question answered by the retry), wait for a retry
// only so long on the gateway's clock (then be cancelled upstream), and be continued by no one but
// its caller. The upstream is a scripted 2025-11-25 server over real HTTP; the caller posts raw
// 2026-07-28 requests, so the spec sees each round's inputRequests and requestState.
import { expect } from 'chai';
import { z } from 'zod';
import { ManualClock } from '../../lib/clock.js';
import { createGateway, type Gateway } from '../../lib/gateway/gateway.js';
import { ParkedCalls } from '../../lib/gateway/parked-calls.js';
import { UpstreamCall } from '../../lib/gateway/upstream-call.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import type { FeatureContext } from '../../lib/server-features/feature-context.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { post } from '../fixtures/http-server/raw.js';

const V = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, sampling: {} }, 'io.modelcontextprotocol/clientInfo': { name: 'spec', version: '1' } };
const WAIT_MS = 30_000;
const ADA = { name: 'Ada' };

/** A 2025-11-25 upstream whose `book` asks who for (elicitation), then, with `note`, samples a note. */
function legacyUpstream() {
  const seen = { runs: 0, cancelled: 0, answers: [] as unknown[] };
  let cancelled: () => void = () => undefined;
  const cancellation = new Promise<void>((r) => (cancelled = r));
  const mcp = createMcpServer({ info: { name: 'legacy', version: '1.0.0' }, supportedVersions: ['2025-11-25'] });
  mcp.registerTool('book', { inputSchema: { room: z.string(), note: z.boolean().optional() } }, async ({ room, note }, ctx) => {
    const run = ++seen.runs;
    ctx.progress(1, 2, 'asking');
    ctx.signal.addEventListener('abort', () => {
      seen.cancelled++;
      cancelled();
    });
    const who = await ctx.elicit({ message: `Who is ${room} for?`, requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
    seen.answers.push(who);
    ctx.progress(2, 2, 'answered');
    if (who.action !== 'accept') return { content: [{ type: 'text', text: 'not booked' }] };
    let said = '';
    if (note === true) {
      const sampled = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'A note for the booking' } }], maxTokens: 20 });
      seen.answers.push(sampled);
      said = `; note: ${(sampled.content as { text?: string }).text ?? ''}`;
    }
    return { content: [{ type: 'text', text: `${room} booked for ${String(who.content?.name)} (run ${run})${said}` }] };
  });
  mcp.registerPrompt('greet', {}, async (_a, ctx) => {
    seen.runs++;
    const who = await ctx.elicit({ message: 'Whom to greet?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
    return { messages: [{ role: 'user', content: { type: 'text', text: `hello ${String(who.content?.name)} (run ${seen.runs})` } }] };
  });
  return { mcp, seen, cancellation };
}

/** A response (from JSON, or the last event of a stream) and the progress the stream carried before it. */
type Answer = { json: { result?: Record<string, any>; error?: { code: number; message: string } }; body: string; progress: number[] };

describe('gateway: a legacy upstream call goes on across a 2026-07-28 caller\'s input rounds (issue 30)', function () {
  this.timeout(20_000);
  let upstream: ReturnType<typeof legacyUpstream>;
  let upstreamWeb: Listening;
  let gateway: Gateway;
  let web: Listening;
  let clock: ManualClock;
  let id = 0;

  beforeEach(async () => {
    upstream = legacyUpstream();
    upstreamWeb = await listen(createStreamableHttpHandler(upstream.mcp.server), { port: 0, logger: false });
    clock = new ManualClock(Date.now());
    gateway = createGateway({ servers: { legacy: { url: upstreamWeb.url } }, clientOptions: { era: 'legacy' }, clock, inputWaitMs: WAIT_MS });
    await gateway.start();
    // The caller is who the x-user header names.
    const authenticate = (req: { headers: Record<string, string | string[] | undefined> }) => ({ ok: true as const, authInfo: req.headers['x-user'] === undefined ? undefined : { sub: String(req.headers['x-user']) } });
    web = await listen(createStreamableHttpHandler(gateway.server.server, { authenticate, onError: () => undefined }), { port: 0, logger: false });
  });
  afterEach(async () => {
    await web?.close();
    await gateway?.close();
    await upstreamWeb?.close();
  });

  /** A tools/call of `legacy__book` as `user`, optionally a retry answering the round before. */
  const book = async (user: string, args: Record<string, unknown>, retry?: { state: string; answers: Record<string, unknown> }, progressToken?: string): Promise<Answer> => {
    const params = { name: 'legacy__book', arguments: args, ...(retry && { inputResponses: retry.answers, requestState: retry.state }), _meta: { ...META, ...(progressToken !== undefined && { progressToken }) } };
    const { body, json } = await post(web.url, { jsonrpc: '2.0', id: ++id, method: 'tools/call', params }, { 'mcp-protocol-version': V, 'mcp-method': 'tools/call', 'mcp-name': 'legacy__book', 'x-user': user });
    // With a progress token the answer is an event stream: its progress, then the response.
    const events = body.split('\n').filter((l) => l.startsWith('data:')).map((l) => JSON.parse(l.slice(5)) as { method?: string; params?: { progress: number } });
    const progress = events.flatMap((e) => (e.method === 'notifications/progress' ? [e.params!.progress] : []));
    return { body, progress, json: (json ?? events.find((e) => e.method === undefined)) as Answer['json'] };
  };
  /** The one input request of a round, checked, with its key. */
  const roundOf = (r: Answer, method: string) => {
    expect(r.json.result?.resultType, r.body).to.equal('input_required');
    const entries = Object.entries(r.json.result!.inputRequests as Record<string, { method: string }>);
    expect(entries.map(([, q]) => q.method)).to.deep.equal([method]);
    return { key: entries[0]![0], state: r.json.result!.requestState as string };
  };
  const textOf = (r: Answer) => ((r.json.result?.content ?? []) as { text?: string }[]).map((b) => b.text).join('');

  it('the upstream tool runs once across an elicitation round; its question gets the retry\'s answer, its progress goes on', async () => {
    const round = roundOf(await book('ada', { room: 'A1' }), 'elicitation/create');
    expect(gateway.parkedCalls).to.equal(1);
    const done = await book('ada', { room: 'A1' }, { state: round.state, answers: { [round.key]: { action: 'accept', content: ADA } } }, 'p-1');
    expect(textOf(done), done.body).to.equal('A1 booked for Ada (run 1)');
    // The retry hears the progress made after the answer, not a restart from the beginning.
    expect(done.progress).to.deep.equal([2]);
    expect(upstream.seen).to.deep.include({ runs: 1, cancelled: 0 });
    expect(upstream.seen.answers).to.deep.equal([{ action: 'accept', content: ADA }]);
    expect(gateway.parkedCalls).to.equal(0);
  });

  it('two rounds (elicitation, then sampling) continue the same upstream call', async () => {
    const first = roundOf(await book('ada', { room: 'B2', note: true }), 'elicitation/create');
    const second = roundOf(await book('ada', { room: 'B2', note: true }, { state: first.state, answers: { [first.key]: { action: 'accept', content: ADA } } }), 'sampling/createMessage');
    expect(second.key).to.not.equal(first.key);
    const sampled = { role: 'assistant', content: { type: 'text', text: 'window seat' }, model: 'spec' };
    const done = await book('ada', { room: 'B2', note: true }, { state: second.state, answers: { [second.key]: sampled } });
    expect(textOf(done), done.body).to.equal('B2 booked for Ada (run 1); note: window seat');
    expect(upstream.seen).to.deep.include({ runs: 1, cancelled: 0 });
  });

  it('a caller that never retries: the upstream call is cancelled at the limit, on the gateway\'s clock; a late retry does not run it again', async () => {
    const round = roundOf(await book('ada', { room: 'C3' }), 'elicitation/create');
    clock.advance(WAIT_MS - 1);
    expect(gateway.parkedCalls).to.equal(1);
    expect(upstream.seen.cancelled).to.equal(0);
    clock.advance(1);
    expect(gateway.parkedCalls).to.equal(0);
    await upstream.cancellation;
    expect(upstream.seen).to.deep.include({ runs: 1, cancelled: 1 });
    const late = await book('ada', { room: 'C3' }, { state: round.state, answers: { [round.key]: { action: 'accept', content: ADA } } });
    expect(late.json.result?.isError, late.body).to.equal(true);
    expect(textOf(late)).to.match(/upstream call this retry continues has ended/);
    expect(upstream.seen.runs).to.equal(1);
  });

  it('a prompts/get continues across its round the same way', async () => {
    const get = (retry?: { state: string; answers: Record<string, unknown> }) => {
      const params = { name: 'legacy__greet', ...(retry && { inputResponses: retry.answers, requestState: retry.state }), _meta: META };
      return post(web.url, { jsonrpc: '2.0', id: ++id, method: 'prompts/get', params }, { 'mcp-protocol-version': V, 'mcp-method': 'prompts/get', 'mcp-name': 'legacy__greet', 'x-user': 'ada' }).then(({ body, json }) => ({ body, json: json as Answer['json'], progress: [] }));
    };
    const round = roundOf(await get(), 'elicitation/create');
    const done = await get({ state: round.state, answers: { [round.key]: { action: 'accept', content: ADA } } });
    expect(done.json.result?.messages?.[0]?.content?.text, done.body).to.equal('hello Ada (run 1)');
  });

  it("another principal's retry with a copied state does not resume the call; its caller's retry does", async () => {
    const round = roundOf(await book('ada', { room: 'D4' }), 'elicitation/create');
    const stolen = await book('bo', { room: 'D4' }, { state: round.state, answers: { [round.key]: { action: 'accept', content: { name: 'Bo' } } } });
    expect(stolen.json.error?.code, stolen.body).to.equal(-32602);
    expect(gateway.parkedCalls).to.equal(1);
    const done = await book('ada', { room: 'D4' }, { state: round.state, answers: { [round.key]: { action: 'accept', content: ADA } } });
    expect(textOf(done), done.body).to.equal('D4 booked for Ada (run 1)');
    expect(upstream.seen.answers).to.deep.equal([{ action: 'accept', content: ADA }]);
    expect(upstream.seen.runs).to.equal(1);
  });
});

describe('gateway: parked calls', () => {
  it('an inputWaitMs that is not a usable time is refused with a clear error', () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createGateway({ servers: {}, inputWaitMs: bad }), String(bad)).to.throw(TypeError, /inputWaitMs must be a positive number of ms/);
    }
  });

  const call = (owner: string) => new UpstreamCall({} as FeatureContext, owner, 'round-1', () => undefined);

  it('a retry by anyone but the owner is refused and leaves the call parked for its owner', () => {
    const clock = new ManualClock(0);
    const parked = new ParkedCalls(clock, 1_000);
    const ada = call('sub:ada\nlegacy\ndigest');
    parked.park(ada);
    expect(() => parked.take('round-1', 'sub:bo\nlegacy\ndigest')).to.throw(/does not belong/);
    expect(parked.take('round-1', 'sub:ada\nlegacy\ndigest')).to.equal(ada);
    // Taken once: a second retry finds nothing, and the limit no longer cancels it.
    expect(parked.take('round-1', 'sub:ada\nlegacy\ndigest')).to.equal(undefined);
    clock.advance(1_000);
    expect(ada.signal.aborted).to.equal(false);
  });
});
