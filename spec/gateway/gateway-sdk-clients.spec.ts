// The official clients through the gateway in front of server-everything (legacy-only, stdio):
// the SDK v2 client pinned to 2026-07-28 (elicitation, sampling and roots reach it as input
// rounds) and the SDK 1.32.2 client in the legacy era (as server-to-client requests on its
// session) each call every tool the gateway lists for it, see progress, and cancel a call (the
// upstream gets notifications/cancelled).
import { expect } from 'chai';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { filter, firstValueFrom, switchMap, timeout } from 'rxjs';
import { createGateway, type Gateway } from '../../lib/gateway/gateway.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { everythingEntry } from '../fixtures/interop-everything/everything.js';
import { runInspector } from '../interop/demo/helpers.js';

type Block = { type?: string; text?: string };
type Result = { content?: Block[]; structuredContent?: unknown; isError?: boolean };
const textOf = (r: object) => (((r as Result).content ?? []) as Block[]).map((b) => b.text ?? '').join('\n');
const typesOf = (r: object) => (((r as Result).content ?? []) as Block[]).map((b) => b.type);
const ELICITED = { name: 'Grace Hopper' };
const SAMPLED = { model: 'sdk-model', role: 'assistant' as const, content: { type: 'text' as const, text: 'from the sdk' } };
const ROOTS = { roots: [{ uri: 'file:///srv/sdk-root', name: 'sdk root' }] };
const SLOW = 'everything__trigger-long-running-operation';
const RESEARCH = 'everything__simulate-research-query';

/**
 * Every tool of server-everything (namespaced by the gateway), the arguments it is called with,
 * and what its answer must show. The logging and subscriber toggles are called twice (on, off).
 */
const EVERY_TOOL: Record<string, { args: Record<string, unknown>; check: (r: Result) => void; twice?: boolean }> = {
  everything__echo: { args: { message: 'every tool' }, check: (r) => expect(textOf(r)).to.contain('every tool') },
  'everything__get-annotated-message': { args: { messageType: 'success' }, check: (r) => expect(textOf(r)).to.not.equal('') },
  'everything__get-env': { args: {}, check: (r) => expect(textOf(r)).to.contain('PATH') },
  'everything__get-resource-links': { args: { count: 2 }, check: (r) => expect(typesOf(r)).to.include('resource_link') },
  'everything__get-resource-reference': { args: {}, check: (r) => expect(typesOf(r)).to.include('resource') },
  'everything__get-structured-content': { args: { location: 'Chicago' }, check: (r) => expect(r.structuredContent).to.be.an('object') },
  'everything__get-sum': { args: { a: 20, b: 22 }, check: (r) => expect(textOf(r)).to.contain('42') },
  'everything__get-tiny-image': { args: {}, check: (r) => expect(typesOf(r)).to.include('image') },
  'everything__gzip-file-as-resource': { args: { name: 'hello.gz', data: 'data:text/plain;base64,aGVsbG8=', outputType: 'resource' }, check: (r) => expect(typesOf(r)).to.include('resource') },
  'everything__toggle-simulated-logging': { args: {}, check: (r) => expect(textOf(r)).to.match(/logging/i), twice: true },
  'everything__toggle-subscriber-updates': { args: {}, check: (r) => expect(textOf(r)).to.match(/update/i), twice: true },
  [SLOW]: { args: { duration: 0.3, steps: 3 }, check: (r) => expect(textOf(r)).to.match(/complete/i) },
  'everything__get-roots-list': { args: {}, check: (r) => expect(textOf(r)).to.contain('file:///srv/sdk-root') },
  'everything__trigger-elicitation-request': { args: {}, check: (r) => expect(textOf(r)).to.contain('Grace Hopper') },
  'everything__trigger-sampling-request': { args: { prompt: 'hi' }, check: (r) => expect(textOf(r)).to.contain('from the sdk') },
  // A task upstream (taskSupport "required"): the gateway runs and polls it (about 4 s of stages).
  [RESEARCH]: { args: { topic: 'gateways' }, check: (r) => expect(textOf(r)).to.contain('gateways') },
};

/** Call every listed tool (but `skip`) through `call`; each must be in the table and answer as it says. */
async function callEveryTool(listed: string[], call: (name: string, args: Record<string, unknown>) => Promise<Result>, skip: string[] = []): Promise<void> {
  expect(listed.filter((name) => EVERY_TOOL[name] === undefined), 'tools the spec does not call').to.deep.equal([]);
  expect(listed).to.have.length(Object.keys(EVERY_TOOL).length);
  for (const name of listed.filter((n) => !skip.includes(n))) {
    const { args, check, twice } = EVERY_TOOL[name]!;
    for (let i = 0; i < (twice ? 2 : 1); i++) {
      const result = await call(name, args);
      expect(result.isError, `${name}: ${textOf(result)}`).to.not.equal(true);
      check(result);
    }
  }
}

describe('gateway: the official SDK clients call every tool of server-everything through it', function () {
  this.timeout(60_000);
  let gateway: Gateway;
  let web: Listening;

  before(async () => {
    gateway = createGateway({ mcpServers: { everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] } }, stderr: 'ignore' });
    // server-everything asks for roots/list once, 350 ms after it is initialized, for no call. With
    // no call in flight the gateway refuses it; in flight, it would be asked of that caller, and a
    // 2026-07-28 caller's call would end in an input round and run again (its progress starting
    // over, after the SDK's own "round 1" progress). So no call starts before that ask is answered.
    let asked: unknown;
    const rootsSynced = firstValueFrom(gateway.host.sessions$.pipe(
      filter((s) => s.server === 'everything'),
      switchMap((s) => s.client.frames$),
      filter((f) => {
        const frame = f.frame as { id?: unknown; method?: string };
        if (f.direction === 'in' && frame.method === 'roots/list') asked = frame.id;
        return f.direction === 'out' && asked !== undefined && frame.method === undefined && frame.id === asked;
      }),
      // A server-everything that no longer asks: nothing to wait for.
      timeout({ first: 10_000 }),
    )).catch(() => undefined);
    await gateway.start();
    await rootsSynced;
    await firstValueFrom(gateway.host.tools$.pipe(filter((ts) => ts.some((t) => t.name === 'everything__trigger-sampling-request'))));
    web = await listen(createStreamableHttpHandler(gateway.server.server), { port: 0 });
  });
  after(async () => {
    await web?.close();
    await gateway?.close();
  });

  /** Resolves when the gateway's upstream client sends notifications/cancelled. */
  const upstreamCancel = () => firstValueFrom(gateway.host.client('everything')!.frames$.pipe(filter((f) => f.direction === 'out' && (f.frame as { method?: string }).method === 'notifications/cancelled')));

  it('SDK v2 pinned to 2026-07-28: every tool (elicitation, sampling, roots, progress, a task), and a cancellation', async () => {
    const client = new ClientV2(
      { name: 'sdk-v2', version: '2.4.0' },
      { capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } } as never,
    );
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: ELICITED }));
    client.setRequestHandler('sampling/createMessage', async () => SAMPLED);
    client.setRequestHandler('roots/list', async () => ROOTS);
    await client.connect(new HttpV2(new URL(web.url)));
    try {
      expect(client.getNegotiatedProtocolVersion()).to.equal('2026-07-28');
      const listed = (await client.listTools()).tools.map((t: { name: string }) => t.name);
      await callEveryTool(listed, async (name, args) => {
        if (name !== SLOW) return (await client.callTool({ name, arguments: args })) as Result;
        const progress: number[] = [];
        const result = (await client.callTool({ name, arguments: args }, { onprogress: (p: { progress: number }) => progress.push(p.progress) } as never)) as Result;
        expect(progress).to.deep.equal([1, 2, 3]);
        return result;
      });
      const cancelled = upstreamCancel();
      const abort = new AbortController();
      const call = client.callTool({ name: SLOW, arguments: { duration: 30, steps: 30 } }, { signal: abort.signal, onprogress: () => abort.abort() } as never);
      expect(await call.then(() => 'answered', (e: unknown) => e)).to.be.instanceOf(Error);
      await cancelled;
    } finally {
      await client.close();
    }
  });

  // The Inspector's CLI is one request per process and answers nothing the server asks (no
  // elicitation, sampling or roots), so it calls every tool that needs no answer from the client.
  it("MCP Inspector's CLI in the legacy era: every tool that asks the client nothing", async function () {
    this.timeout(120_000);
    const target = [web.url, '--transport', 'http'];
    const listed = ((await runInspector(target, ['--method', 'tools/list'])).json as { tools: { name: string }[] }).tools.map((t) => t.name);
    const asks = ['everything__get-roots-list', 'everything__trigger-elicitation-request', 'everything__trigger-sampling-request'];
    await callEveryTool(listed, async (name, args) => {
      const toolArgs = Object.entries(args).flatMap(([k, v]) => ['--tool-arg', `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`]);
      const run = await runInspector(target, ['--method', 'tools/call', '--tool-name', name, ...toolArgs], 30_000);
      expect(run.json, `${name}: ${run.stderr}`).to.be.an('object');
      return run.json as Result;
    }, asks);
  });

  it('SDK 1.32.2 in the legacy era: every tool (the research task included), and a cancellation', async () => {
    const client = new ClientV1({ name: 'sdk-v1', version: '1.32.2' }, { capabilities: { elicitation: {}, sampling: {}, roots: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: ELICITED }));
    client.setRequestHandler(CreateMessageRequestSchema, async () => SAMPLED as never);
    client.setRequestHandler(ListRootsRequestSchema, async () => ROOTS);
    await client.connect(new HttpV1(new URL(web.url)));
    try {
      const listed = (await client.listTools()).tools.map((t) => t.name);
      await callEveryTool(listed, async (name, args) => {
        if (name !== SLOW) return (await client.callTool({ name, arguments: args })) as Result;
        const progress: number[] = [];
        const result = (await client.callTool({ name, arguments: args }, undefined, { onprogress: (p) => progress.push(p.progress) })) as Result;
        expect(progress).to.deep.equal([1, 2, 3]);
        return result;
      });
      const cancelled = upstreamCancel();
      const abort = new AbortController();
      const call = client.callTool({ name: SLOW, arguments: { duration: 30, steps: 30 } }, undefined, { signal: abort.signal, onprogress: () => abort.abort() });
      expect(await call.then(() => 'answered', (e: unknown) => e)).to.be.instanceOf(Error);
      await cancelled;
    } finally {
      await client.close();
    }
  });
});
