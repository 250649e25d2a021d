// The plain (req, res) handler mounted the ways the README and users mount it: Express 5 with
// app.all and app.use, after express.json(), under node:http, and called with an explicit
// parsedBody. Express passes `next` as the third argument: it must not be taken for the body.
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import express from 'express';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createClient } from '../../lib/entries/client.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { text } from '../../lib/server-features/content.js';
import { createStreamableHttpHandler, type StreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';

function notesServer() {
  const mcp = createMcpServer({ info: { name: 'express-notes', version: '1.0.0' } });
  mcp.registerTool('add', { inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } }, (args) => ({
    content: [text(String(Number(args['a']) + Number(args['b'])))],
  }));
  return mcp;
}

async function serve(listener: (req: never, res: never) => void): Promise<{ url: string; server: HttpServer }> {
  const server = createHttpServer(listener as never);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

/** A session with our client and one with the SDK 1.32.2 client: initialize, list, call, close. */
async function twoClientSessions(url: string): Promise<void> {
  const ours = createClient({ info: { name: 'ours', version: '1.0.0' } });
  await ours.connect(createStreamableHttpClientTransport(url));
  expect(ours.serverInfo?.name).to.equal('express-notes');
  expect((await ours.listTools()).map((t) => t.name)).to.deep.equal(['add']);
  expect(await ours.callTool('add', { a: 2, b: 3 })).to.deep.include({ content: [{ type: 'text', text: '5' }] });
  await ours.close();

  const sdk = new SdkClient({ name: 'sdk', version: '1.0.0' });
  await sdk.connect(new StreamableHTTPClientTransport(new URL(url)));
  expect(sdk.getServerVersion()?.name).to.equal('express-notes');
  expect((await sdk.listTools()).tools.map((t) => t.name)).to.deep.equal(['add']);
  expect(await sdk.callTool({ name: 'add', arguments: { a: 4, b: 5 } })).to.deep.include({ content: [{ type: 'text', text: '9' }] });
  await sdk.close();
}

describe('the plain HTTP handler mounted in Express and node:http', () => {
  let handler: StreamableHttpHandler | undefined;
  let server: HttpServer | undefined;
  afterEach(async () => {
    await handler?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    handler = undefined;
    server = undefined;
  });

  const mounts: Array<[string, (h: StreamableHttpHandler) => express.Express]> = [
    ['app.all("/mcp", handler)', (h) => express().all('/mcp', h)],
    ['app.use("/mcp", handler)', (h) => express().use('/mcp', h)],
    ['app.use(express.json()) then app.post/get/delete("/mcp", handler)', (h) => express().use(express.json()).post('/mcp', h).get('/mcp', h).delete('/mcp', h)],
    ['app.all("/mcp", express.json(), handler)', (h) => express().all('/mcp', express.json(), h)],
  ];
  for (const [name, mount] of mounts) {
    it(`runs a session with our client and the SDK client under Express 5: ${name}`, async () => {
      handler = createStreamableHttpHandler(notesServer().server);
      ({ server } = await serve(mount(handler) as never));
      await twoClientSessions(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
    });
  }

  it('runs a session under node:http directly', async () => {
    handler = createStreamableHttpHandler(notesServer().server);
    let url: string;
    ({ server, url } = await serve(handler as never));
    await twoClientSessions(url);
  });

  it('takes an explicit parsedBody (a framework that parsed the JSON itself)', async () => {
    const h = (handler = createStreamableHttpHandler(notesServer().server));
    let parsed = 0;
    let url: string;
    ({ server, url } = await serve(((req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
      if (req.method !== 'POST') return h(req, res);
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        parsed++;
        h(req, res, JSON.parse(Buffer.concat(chunks).toString('utf8')));
      });
    }) as never));
    await twoClientSessions(url);
    expect(parsed).to.be.greaterThan(4);
  });
});
