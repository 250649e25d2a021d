// The official SDK's call shapes, accepted beside ours (typed), so code written for
// @modelcontextprotocol/sdk moves over with few edits (docs/migrating-from-sdk.md).
import { expect } from 'chai';
import { z } from 'zod';
import { Client, createClient } from '../../lib/entries/client.js';
import { McpServer, createMcpServer } from '../../lib/mcp-server.js';
import { ResourceTemplate } from '../../lib/server-features/resource-template.js';
import { ResourceNotFoundError } from '../../lib/server-features/resources.js';
import { text } from '../../lib/server-features/content.js';
import { createMemoryPair } from '../../streams/memory.js';

async function connectPair(mcp: McpServer): Promise<Client> {
  const [a, b] = createMemoryPair();
  // These shapes are the 2025 SDK's: a session (the legacy era), as code moved from it expects.
  const client = createClient({ info: { name: 'c', version: '1.0.0' }, era: 'legacy' });
  await Promise.all([mcp.connect(a), client.connect(b)]);
  return client;
}

function sdkStyleServer(pageSize = 100): McpServer {
  // The SDK's constructor: info first, options second.
  const mcp = new McpServer({ name: 'sdk-style', version: '2.0.0' }, { instructions: 'notes', pageSize });
  // A zod raw shape as inputSchema; the handler's arguments are typed from it.
  mcp.registerTool('add', { description: 'Adds', inputSchema: { a: z.number(), b: z.number().optional() } }, ({ a, b }) => {
    const sum: number = a + (b ?? 0);
    // @ts-expect-error -- `b` may be undefined: the shape made it optional
    const strict: number = b;
    void strict;
    return { content: [text(String(sum))] };
  });
  mcp.registerTool('second', {}, () => 'two');
  mcp.registerPrompt('greet', { argsSchema: { who: z.string() } }, ({ who }) => ({ messages: [{ role: 'user', content: text(`hello ${who}`) }] }));
  // The SDK's ResourceTemplate, given to registerResource.
  mcp.registerResource(
    'note',
    new ResourceTemplate('notes://{id}', {
      list: () => ({ resources: [{ uri: 'notes://1', name: 'one' }] }),
      complete: { id: (value) => ['1', '2'].filter((v) => v.startsWith(value)) },
    }),
    { mimeType: 'text/plain' },
    (uri, { id }) => {
      if (id !== '1') throw new ResourceNotFoundError(uri);
      return { contents: [{ text: 'note one' }] };
    },
  );
  return mcp;
}

describe('the official SDK call shapes', () => {
  it('new McpServer({ name, version }, options) and createMcpServer(info) take the info first', async () => {
    const client = await connectPair(sdkStyleServer());
    expect(client.serverInfo).to.deep.include({ name: 'sdk-style', version: '2.0.0' });
    expect(createMcpServer({ name: 'x', version: '1' }).options.info).to.deep.equal({ name: 'x', version: '1' });
    expect(createMcpServer({ info: { name: 'y', version: '1' } }).options.info).to.deep.equal({ name: 'y', version: '1' });
    await client.close();
  });

  it('new Client({ name, version }, options) and createClient(info) take the info first', async () => {
    const [a, b] = createMemoryPair();
    const mcp = sdkStyleServer();
    const client = new Client({ name: 'sdk-shaped-client', version: '3.0.0' }, { listChangedDebounceMs: 0, era: 'legacy' });
    await Promise.all([mcp.connect(a), client.connect(b)]);
    expect([...mcp.sessions][0]!.peerInfo).to.deep.include({ name: 'sdk-shaped-client', version: '3.0.0' });
    expect(createClient({ name: 'x', version: '1' })).to.be.instanceOf(Client);
    await client.close();
  });

  it('a zod raw shape is sent as a JSON Schema object and validates the arguments', async () => {
    const client = await connectPair(sdkStyleServer());
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'add')?.inputSchema).to.deep.equal({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a'],
    });
    expect(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).to.deep.include({ content: [{ type: 'text', text: '5' }] });
    expect(await client.callTool({ name: 'add', arguments: { a: 2 } })).to.deep.include({ content: [{ type: 'text', text: '2' }] });
    const bad = await client.callTool({ name: 'add', arguments: { a: 'two' } });
    expect(bad.isError).to.equal(true);
    expect(JSON.stringify(bad.content)).to.include('a:');
    await client.close();
  });

  it('callTool, getPrompt and readResource take the SDK params object; ours still work', async () => {
    const client = await connectPair(sdkStyleServer());
    const progress: number[] = [];
    // The SDK passes a result schema second; ours ignores it (the tool's outputSchema is checked).
    await client.callTool({ name: 'add', arguments: { a: 1 } }, undefined, { onprogress: (p) => progress.push(p.progress) });
    expect(await client.callTool('add', { a: 4, b: 4 })).to.deep.include({ content: [{ type: 'text', text: '8' }] });
    expect(await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } })).to.deep.include({
      messages: [{ role: 'user', content: { type: 'text', text: 'hello Ada' } }],
    });
    expect(await client.getPrompt('greet', { who: 'Bob' })).to.deep.include({ messages: [{ role: 'user', content: { type: 'text', text: 'hello Bob' } }] });
    expect(await client.readResource({ uri: 'notes://1' })).to.deep.equal({ contents: [{ uri: 'notes://1', mimeType: 'text/plain', text: 'note one' }] });
    expect(await client.readResource('notes://1')).to.deep.equal({ contents: [{ uri: 'notes://1', mimeType: 'text/plain', text: 'note one' }] });
    await client.close();
  });

  it('a template handler answers an unknown resource with -32002 (ResourceNotFoundError)', async () => {
    const client = await connectPair(sdkStyleServer());
    const e = await client.readResource({ uri: 'notes://999' }).then(
      () => undefined,
      (err: unknown) => err as { code: number; data: unknown },
    );
    expect(e?.code).to.equal(-32002);
    expect(e?.data).to.deep.equal({ uri: 'notes://999' });
    await client.close();
  });

  it('list results are arrays that also destructure as { tools, nextCursor } (all pages, or one with { cursor })', async () => {
    const client = await connectPair(sdkStyleServer(1));
    const all = await client.listTools();
    expect(all.map((t) => t.name)).to.deep.equal(['add', 'second']);
    expect(all).to.deep.equal([...all]);
    expect(Object.keys(all)).to.deep.equal(['0', '1']);
    const { tools, nextCursor } = all;
    expect(tools.map((t) => t.name)).to.deep.equal(['add', 'second']);
    expect(nextCursor).to.equal(undefined);
    const first = await client.listTools({ cursor: undefined });
    expect(first.tools.map((t) => t.name)).to.deep.equal(['add']);
    expect(first.nextCursor).to.be.a('string');
    const second = await client.listTools({ cursor: first.nextCursor });
    expect(second.tools.map((t) => t.name)).to.deep.equal(['second']);
    expect(second.nextCursor).to.equal(undefined);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).to.deep.equal(['greet']);
    expect((await client.listResources()).resources.map((r) => r.uri)).to.deep.equal(['notes://1']);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).to.deep.equal(['notes://{id}']);
    expect(await client.complete({ type: 'ref/resource', uri: 'notes://{id}' }, { name: 'id', value: '' })).to.deep.include({
      completion: { values: ['1', '2'], total: 2, hasMore: false },
    });
    await client.close();
  });
});
