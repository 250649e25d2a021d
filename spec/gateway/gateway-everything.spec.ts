// A gateway re-serving the reference legacy-only stdio server (server-everything) over Streamable
// HTTP: our client pinned to 2026-07-28 calls its tools, answers its elicitation and sampling as
// input rounds, sees its progress, and a cancelled call reaches it as notifications/cancelled.
import { expect } from 'chai';
import { filter, firstValueFrom } from 'rxjs';
import { Client } from '../../lib/entries/client.js';
import { createGateway, type Gateway } from '../../lib/gateway/gateway.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import type { Progress } from '../../lib/session/request-registry.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { everythingEntry } from '../fixtures/interop-everything/everything.js';

const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { text?: string }[]).map((b) => b.text ?? '').join('\n');

describe('gateway: a legacy stdio server re-served to a 2026-07-28 client over HTTP', function () {
  this.timeout(60_000);
  let gateway: Gateway;
  let web: Listening;
  let client: Client;
  const elicited: string[] = [];
  const sampled: unknown[] = [];

  before(async () => {
    gateway = createGateway({ servers: { everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] } }, stderr: 'ignore' });
    await gateway.start();
    await firstValueFrom(gateway.host.tools$.pipe(filter((ts) => ts.some((t) => t.name === 'everything__trigger-elicitation-request'))));
    web = await listen(createStreamableHttpHandler(gateway.server.server), { port: 0 });
    client = new Client({ info: { name: 'downstream', version: '1.0.0' }, era: 'modern' });
    client.onElicitation({
      form: (request) => {
        elicited.push(request.message);
        return { action: 'accept', content: { name: 'Ada Lovelace' } };
      },
    });
    client.onSampling((params) => {
      sampled.push(params.messages);
      return { role: 'assistant', model: 'stub-model', content: { type: 'text', text: 'sampled answer' } };
    });
    await client.connect(createStreamableHttpClientTransport(web.url));
  });
  after(async () => {
    await client?.close();
    await web?.close();
    await gateway?.close();
  });

  it('speaks 2026-07-28 downstream and lists the upstream tools namespaced', async () => {
    expect(client.protocolVersion).to.equal('2026-07-28');
    const names = (await client.listTools()).map((t) => t.name);
    expect(names).to.include.members(['everything__echo', 'everything__trigger-long-running-operation']);
    expect(textOf(await client.callTool('everything__echo', { message: 'through' }))).to.contain('through');
  });

  it('an upstream elicitation reaches the downstream client and its answer goes back', async () => {
    const result = await client.callTool('everything__trigger-elicitation-request', {});
    expect(elicited).to.have.length(1);
    expect(textOf(result)).to.contain('Ada Lovelace');
  });

  it('an upstream sampling request is answered by the downstream client', async () => {
    const result = await client.callTool('everything__trigger-sampling-request', { prompt: 'hi', maxTokens: 10 });
    expect(sampled).to.have.length(1);
    expect(textOf(result)).to.contain('sampled answer');
  });

  it('progress from the upstream reaches the downstream caller', async () => {
    const seen: Progress[] = [];
    await client.callTool('everything__trigger-long-running-operation', { duration: 0.3, steps: 3 }, { onprogress: (p) => seen.push(p) });
    expect(seen.map((p) => p.progress)).to.deep.equal([1, 2, 3]);
  });

  it('a cancelled call is cancelled upstream (notifications/cancelled)', async () => {
    const upstream = gateway.host.client('everything')!;
    const cancelled = firstValueFrom(upstream.frames$.pipe(filter((f) => f.direction === 'out' && (f.frame as { method?: string }).method === 'notifications/cancelled')));
    const abort = new AbortController();
    const call = client.callTool('everything__trigger-long-running-operation', { duration: 30, steps: 30 }, { signal: abort.signal, onprogress: () => abort.abort() });
    const failure = await call.then(() => undefined, (e: unknown) => e);
    expect(failure).to.be.instanceOf(Error);
    await cancelled;
  });
});
