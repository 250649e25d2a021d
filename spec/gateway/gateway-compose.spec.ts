// Two upstreams mounted in one gateway: server-everything (legacy, stdio) and a server of ours.
// The lists are namespaced; when one upstream dies its tools leave the downstream client's live
// list (list_changed reaches it over HTTP in the 2026-07-28 era) and come back when the host
// has restarted it, while the other keeps serving.
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { filter, firstValueFrom } from 'rxjs';
import { Client } from '../../lib/entries/client.js';
import { createGateway, type Gateway } from '../../lib/gateway/gateway.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import type { Tool } from '../../lib/protocol/schema/index.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { everythingEntry } from '../fixtures/interop-everything/everything.js';
import { tsArgs } from '../helpers/ts-child.js';

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { text?: string }[]).map((b) => b.text ?? '').join('\n');
const has = (name: string) => (tools: Tool[]) => tools.some((t) => t.name === name);

describe('gateway: two upstreams composed, one dies and returns', function () {
  this.timeout(60_000);
  let gateway: Gateway;
  let web: Listening;
  let client: Client;

  before(async () => {
    gateway = createGateway({
      servers: {
        everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] },
        calc: { command: process.execPath, args: [...tsArgs(path('../fixtures/host/calc-server.ts'))] },
      },
      stderr: 'ignore',
      restart: { initialDelayMs: 500, maxDelayMs: 500, jitter: 0 },
    });
    await gateway.start();
    await firstValueFrom(gateway.host.tools$.pipe(filter((ts) => has('calc__add')(ts) && has('everything__echo')(ts))));
    web = await listen(createStreamableHttpHandler(gateway.server.server), { port: 0 });
    client = new Client({ info: { name: 'downstream', version: '1.0.0' }, era: 'modern' });
    await client.connect(createStreamableHttpClientTransport(web.url));
  });
  after(async () => {
    await client?.close();
    await web?.close();
    await gateway?.close();
  });

  it('lists both namespaced and routes each call to its server', async () => {
    const names = (await client.listTools()).map((t) => t.name);
    expect(names).to.include.members(['calc__add', 'calc__crash', 'everything__echo', 'everything__get-sum']);
    expect(textOf(await client.callTool('calc__add', { a: 2, b: 3 }))).to.equal('5');
    expect(textOf(await client.callTool('everything__get-sum', { a: 2, b: 3 }))).to.contain('5');
  });

  it('a dead upstream: its tools leave the downstream list and return after the restart; the other serves on', async () => {
    await client.listTools();
    const gone = firstValueFrom(client.tools$.pipe(filter((ts) => !has('calc__add')(ts) && has('everything__echo')(ts))));
    const crashed = await client.callTool('calc__crash', {}).then((r) => r.isError, () => true);
    expect(crashed).to.equal(true);
    await gone;
    expect(textOf(await client.callTool('everything__echo', { message: 'still here' }))).to.contain('still here');
    await firstValueFrom(client.tools$.pipe(filter(has('calc__add'))));
    expect(textOf(await client.callTool('calc__add', { a: 1, b: 1 }))).to.equal('2');
  });
});
