// Faults upstream: a server that hangs, writes garbage or exits in the middle of a call gives the
// downstream caller an error for that call only; the other mounted server keeps serving, and the
// gateway's HTTP server stays up.
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { filter, firstValueFrom } from 'rxjs';
import { Client } from '../../lib/entries/client.js';
import { createGateway, type Gateway } from '../../lib/gateway/gateway.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { tsArgs } from '../helpers/ts-child.js';

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const stdio = (file: string) => ({ command: process.execPath, args: [...tsArgs(file)] });
const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { text?: string }[]).map((b) => b.text ?? '').join('\n');

/** What a downstream caller sees of a call: its error (thrown or an isError result), or undefined. */
async function failureOf(call: Promise<{ isError?: boolean; content?: unknown }>): Promise<string | undefined> {
  try {
    const result = await call;
    return result.isError ? textOf(result) : undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

describe('gateway: upstream faults fail the call, nothing else', function () {
  this.timeout(60_000);
  let gateway: Gateway;
  let web: Listening;
  let client: Client;

  before(async () => {
    gateway = createGateway({
      servers: { faulty: stdio(path('./fixtures/faulty-server.ts')), echo: stdio(path('../../examples/echo-server.ts')) },
      stderr: 'ignore',
      clientOptions: { timeout: 1_000 },
      restart: { initialDelayMs: 10, maxDelayMs: 10, jitter: 0 },
    });
    await gateway.start();
    await firstValueFrom(gateway.host.tools$.pipe(filter((ts) => ts.some((t) => t.name === 'faulty__exit') && ts.some((t) => t.name === 'echo__echo'))));
    web = await listen(createStreamableHttpHandler(gateway.server.server), { port: 0 });
    client = new Client({ info: { name: 'downstream', version: '1.0.0' }, era: 'modern' });
    await client.connect(createStreamableHttpClientTransport(web.url));
  });
  after(async () => {
    await client?.close();
    await web?.close();
    await gateway?.close();
  });

  const echoStillServes = async () => expect(textOf(await client.callTool('echo__echo', { text: 'alive' }))).to.equal('alive');

  it('an upstream that hangs: the call fails with a timeout', async () => {
    expect(await failureOf(client.callTool('faulty__hang', {}))).to.match(/faulty__hang.*timed out after 1000 ms/);
    await echoStillServes();
  });

  it('an upstream that writes garbage: the call fails, the gateway stays up', async () => {
    expect(await failureOf(client.callTool('faulty__garbage', {}))).to.match(/faulty__garbage.*timed out/);
    await echoStillServes();
  });

  it('an upstream that exits mid-call: the call fails naming the closed connection', async () => {
    expect(await failureOf(client.callTool('faulty__exit', {}))).to.match(/Connection closed.*"faulty".*exited with code 4/);
    await echoStillServes();
  });
});
