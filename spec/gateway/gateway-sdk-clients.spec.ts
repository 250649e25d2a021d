// The official clients through the gateway in front of server-everything (legacy-only, stdio):
// the SDK v2 client pinned to 2026-07-28 (elicitation and sampling reach it as input rounds) and
// the SDK 1.32.2 client in the legacy era (as server-to-client requests on its session).
import { expect } from 'chai';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { filter, firstValueFrom } from 'rxjs';
import { createGateway, type Gateway } from '../../lib/gateway/gateway.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { everythingEntry } from '../fixtures/interop-everything/everything.js';

const textOf = (r: object) => (((r as { content?: unknown }).content ?? []) as { text?: string }[]).map((b) => b.text ?? '').join('\n');
const ELICITED = { name: 'Grace Hopper' };
const SAMPLED = { model: 'sdk-model', role: 'assistant' as const, content: { type: 'text' as const, text: 'from the sdk' } };

describe('gateway: the official SDK clients in front of server-everything', function () {
  this.timeout(60_000);
  let gateway: Gateway;
  let web: Listening;

  before(async () => {
    gateway = createGateway({ mcpServers: { everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] } }, stderr: 'ignore' });
    await gateway.start();
    await firstValueFrom(gateway.host.tools$.pipe(filter((ts) => ts.some((t) => t.name === 'everything__trigger-sampling-request'))));
    web = await listen(createStreamableHttpHandler(gateway.server.server), { port: 0 });
  });
  after(async () => {
    await web?.close();
    await gateway?.close();
  });

  it('SDK v2 pinned to 2026-07-28: a call, an elicitation and a sampling, progress', async () => {
    const client = new ClientV2(
      { name: 'sdk-v2', version: '2.4.0' },
      { capabilities: { elicitation: { form: {} }, sampling: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } } as never,
    );
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: ELICITED }));
    client.setRequestHandler('sampling/createMessage', async () => SAMPLED);
    await client.connect(new HttpV2(new URL(web.url)));
    try {
      expect(client.getNegotiatedProtocolVersion()).to.equal('2026-07-28');
      expect(textOf(await client.callTool({ name: 'everything__echo', arguments: { message: 'v2' } }))).to.contain('v2');
      expect(textOf(await client.callTool({ name: 'everything__trigger-elicitation-request', arguments: {} }))).to.contain('Grace Hopper');
      expect(textOf(await client.callTool({ name: 'everything__trigger-sampling-request', arguments: { prompt: 'hi' } }))).to.contain('from the sdk');
      const progress: number[] = [];
      await client.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }, { onprogress: (p: { progress: number }) => progress.push(p.progress) } as never);
      expect(progress).to.deep.equal([1, 2, 3]);
    } finally {
      await client.close();
    }
  });

  it('SDK 1.32.2 in the legacy era: the same calls', async () => {
    const client = new ClientV1({ name: 'sdk-v1', version: '1.32.2' }, { capabilities: { elicitation: {}, sampling: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: ELICITED }));
    client.setRequestHandler(CreateMessageRequestSchema, async () => SAMPLED as never);
    await client.connect(new HttpV1(new URL(web.url)));
    try {
      expect(textOf(await client.callTool({ name: 'everything__echo', arguments: { message: 'v1' } }))).to.contain('v1');
      expect(textOf(await client.callTool({ name: 'everything__trigger-elicitation-request', arguments: {} }))).to.contain('Grace Hopper');
      expect(textOf(await client.callTool({ name: 'everything__trigger-sampling-request', arguments: { prompt: 'hi' } }))).to.contain('from the sdk');
      const progress: number[] = [];
      await client.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }, undefined, { onprogress: (p) => progress.push(p.progress) });
      expect(progress).to.deep.equal([1, 2, 3]);
    } finally {
      await client.close();
    }
  });
});
