// Faults upstream: a server that hangs, writes garbage or exits in the middle of a call gives the
// downstream caller a typed protocol error for that call only (-32603 whose data names the
// upstream and the fault; an UpstreamFaultError for our Client, in either era); a tool that ran
// upstream and reported its own error stays an isError result; the other mounted server keeps
// serving, and the gateway's HTTP server stays up.
// The upstream clients' budget runs on a simulated clock: a wait for it to expire is one step of
// that clock, taken once the call is out, so a loaded machine neither times a call out early nor
// makes the spec wait; the upstream servers, the gateway's HTTP server and its callers are real.
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { filter, firstValueFrom, lastValueFrom, take } from 'rxjs';
import { ManualClock } from '../../lib/clock.js';
import { Client } from '../../lib/entries/client.js';
import { McpError, RequestTimeoutError, UpstreamFaultError, type UpstreamFault } from '../../lib/errors.js';
import { createGateway, type Gateway } from '../../lib/gateway/gateway.js';
import { faultOf } from '../../lib/gateway/upstream-fault.js';
import { ServerUnavailableError } from '../../lib/host/host.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { ErrorCode } from '../../lib/jsonrpc/error-codes.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { tsArgs } from '../helpers/ts-child.js';

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const stdio = (file: string) => ({ command: process.execPath, args: [...tsArgs(file)] });
const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { text?: string }[]).map((b) => b.text ?? '').join('\n');

/** The error a downstream call failed with (it must fail, not resolve to a result). */
async function errorOf(call: Promise<unknown>): Promise<unknown> {
  try {
    const result = await call;
    expect.fail(`expected an error, got ${JSON.stringify(result).slice(0, 200)}`);
  } catch (e) {
    return e;
  }
}

/** Each upstream call's budget, on the simulated clock. */
const BUDGET_MS = 2_500;

/** Resolves once `client` has sent a request of each of `methods` (its budget runs from there). */
function sent(client: Client, methods: readonly string[]): Promise<unknown> {
  const frameMethod = (frame: unknown) => (typeof frame === 'object' && frame !== null && 'id' in frame ? (frame as { method?: unknown }).method : undefined);
  return lastValueFrom(client.frames$.pipe(filter((e) => e.direction === 'out' && methods.includes(frameMethod(e.frame) as string)), take(methods.length)));
}

/** The caller got the typed error: -32603 with data naming the upstream, the fault and the method. */
function expectFault(e: unknown, fault: UpstreamFault, method: string, message: RegExp): void {
  expect(e, String(e)).to.be.instanceOf(UpstreamFaultError);
  const error = e as UpstreamFaultError;
  expect(error.code).to.equal(ErrorCode.InternalError);
  expect(error.data).to.deep.equal({ upstream: 'faulty', fault, method });
  expect({ upstream: error.upstream, fault: error.fault, method: error.method }).to.deep.equal({ upstream: 'faulty', fault, method });
  expect(error.message).to.match(message);
}

describe('gateway: upstream faults fail the call with a typed error, nothing else', function () {
  this.timeout(60_000);
  let gateway: Gateway;
  let web: Listening;
  let modern: Client;
  let legacy: Client;
  let clock: ManualClock;

  before(async () => {
    clock = new ManualClock(Date.now());
    gateway = createGateway({
      servers: { faulty: stdio(path('./fixtures/faulty-server.ts')), echo: stdio(path('../../examples/echo-server.ts')) },
      stderr: 'ignore',
      // Every upstream call has this budget (restarts' handshakes too), spent only when the spec steps the clock.
      clientOptions: { timeout: BUDGET_MS, clock },
      restart: { initialDelayMs: 10, maxDelayMs: 10, jitter: 0 },
    });
    await gateway.start();
    await firstValueFrom(gateway.host.tools$.pipe(filter((ts) => ts.some((t) => t.name === 'faulty__exit') && ts.some((t) => t.name === 'echo__echo'))));
    web = await listen(createStreamableHttpHandler(gateway.server.server), { port: 0 });
    modern = new Client({ info: { name: 'downstream', version: '1.0.0' }, era: 'modern' });
    await modern.connect(createStreamableHttpClientTransport(web.url));
    legacy = new Client({ info: { name: 'downstream-legacy', version: '1.0.0' }, era: 'legacy' });
    await legacy.connect(createStreamableHttpClientTransport(web.url));
  });
  after(async () => {
    await modern?.close();
    await legacy?.close();
    await web?.close();
    await gateway?.close();
  });

  const echoStillServes = async () => {
    expect(textOf(await modern.callTool('echo__echo', { text: 'alive' }))).to.equal('alive');
    expect(textOf(await legacy.callTool('echo__echo', { text: 'alive' }))).to.equal('alive');
  };
  /** After `faulty` exited: its restart (a new client) has mounted its tools again. */
  const restarted = async (before: unknown) => {
    await firstValueFrom(gateway.host.tools$.pipe(filter((ts) => gateway.host.client('faulty') !== before && gateway.host.state.faulty?.phase === 'ready' && ts.some((t) => t.name === 'faulty__exit'))));
  };

  /** The upstream client of `faulty` now (a new one after each restart). */
  const faulty = () => gateway.host.client('faulty') as Client;

  it('an upstream that hangs: tools/call, resources/read and completion each fail timedOut, in either era', async () => {
    const out = sent(faulty(), ['tools/call', 'tools/call', 'resources/read', 'completion/complete']);
    const calls = Promise.all([
      errorOf(modern.callTool('faulty__hang', {})),
      errorOf(legacy.callTool('faulty__hang', {})),
      errorOf(modern.readResource('faulty://hang')),
      errorOf(legacy.complete({ type: 'ref/prompt', name: 'faulty__exit' }, { name: 'topic', value: 'x' })),
    ]);
    await out;
    clock.advance(BUDGET_MS);
    const [tool, legacyTool, read, complete] = await calls;
    expectFault(tool, 'timedOut', 'tools/call', /Upstream "faulty" did not answer within 2500 ms/);
    expectFault(legacyTool, 'timedOut', 'tools/call', /did not answer within 2500 ms/);
    expectFault(read, 'timedOut', 'resources/read', /did not answer/);
    expectFault(complete, 'timedOut', 'completion/complete', /did not answer/);
    // The caller's own timeout is another thing: this came from the gateway.
    expect(tool).not.to.be.instanceOf(RequestTimeoutError);
    await echoStillServes();
  });

  it('an upstream that writes garbage: the call fails "garbage", the gateway stays up', async () => {
    // The garbage is told apart from silence once the upstream client has read the line.
    const unreadable = firstValueFrom(faulty().diagnostics$.pipe(filter((d) => d.kind === 'invalid-frame')));
    const call = errorOf(legacy.callTool('faulty__garbage', {}));
    await unreadable;
    clock.advance(BUDGET_MS);
    expectFault(await call, 'garbage', 'tools/call', /sent something that is not JSON-RPC .* and no answer within 2500 ms/);
    await echoStillServes();
  });

  it('an upstream that exits mid-call: tools/call and prompts/get fail "exited", naming the exit', async () => {
    let before = gateway.host.client('faulty');
    expectFault(await errorOf(modern.callTool('faulty__exit', {})), 'exited', 'tools/call', /Upstream "faulty" closed the connection.*exited with code 4/);
    await echoStillServes();
    await restarted(before);
    before = gateway.host.client('faulty');
    expectFault(await errorOf(legacy.getPrompt('faulty__exit', { topic: 'x' })), 'exited', 'prompts/get', /exited with code 4/);
    await restarted(before);
  });

  it('a tool that ran upstream and reported an error stays an isError result', async () => {
    const result = await modern.callTool('faulty__fails', {});
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.contain('the tool itself failed');
  });

  it('an upstream not connected (restarting, failed) or an HTTP endpoint that refuses is "unreachable"', () => {
    const down = faultOf(new ServerUnavailableError('faulty', 'waiting', new Error('exited with code 4')), 'faulty', 'tools/call');
    expect(down?.data).to.deep.equal({ upstream: 'faulty', fault: 'unreachable', method: 'tools/call' });
    expect(down?.message).to.match(/not connected \(waiting\): exited with code 4/);
    const refused = faultOf(new McpError(ErrorCode.ConnectionClosed, 'fetch failed: ECONNREFUSED', { transport: 'http' }), 'remote', 'resources/read');
    expect(refused?.fault).to.equal('unreachable');
    // The upstream's own answer is not a fault of the link.
    expect(faultOf(new McpError(ErrorCode.InvalidParams, 'Unknown tool'), 'faulty', 'tools/call')).to.equal(undefined);
  });

  it("a peer's -32603 with other data stays a plain McpError", () => {
    expect(McpError.fromError({ code: ErrorCode.InternalError, message: 'boom', data: { upstream: 'x', fault: 'melted' } })).not.to.be.instanceOf(UpstreamFaultError);
    expect(McpError.fromError({ code: ErrorCode.InternalError, message: 'down', data: { upstream: 'x', fault: 'exited', method: 'tools/call' } })).to.be.instanceOf(UpstreamFaultError);
  });
});
