import { expect } from 'chai';
import { z } from 'zod';
import { McpError } from '../../lib/errors.js';
import { audio, embeddedResource, image, resourceLink, text } from '../../lib/server-features/content.js';
import { RawPeer, initializeRaw } from '../helpers/raw-peer.js';
import { Client } from '../../lib/entries/client.js';
import { createMemoryPair } from '../../streams/memory.js';
import { CLIENT_INFO, connect, makeServer, rejection, settle } from './helpers.js';

const PNG = Buffer.from('not really a png').toString('base64');

describe('server features: tools', () => {
  it('[TOOL-005] declares the tools capability (with listChanged) once a tool is registered', async () => {
    const { mcp } = makeServer();
    mcp.registerTool('echo', { inputSchema: { type: 'object' } }, () => 'hi');
    const { client } = await connect(mcp);
    expect(client.serverCapabilities).to.deep.include({ tools: { listChanged: true } });
    expect(client.serverCapabilities).to.have.property('logging');
  });

  it('[TOOL-005] without tools there is no tools capability, and tools/list is -32601', async () => {
    const { mcp } = makeServer();
    const peer = new RawPeer();
    await mcp.connect(peer.transport);
    const init = await initializeRaw(peer);
    expect(init.result.capabilities).to.not.have.property('tools');
    peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect((await peer.response(1)).error.code).to.equal(-32601);
  });

  it('lists tools with their JSON Schemas verbatim ($schema, $defs, additionalProperties)', async () => {
    const { mcp } = makeServer();
    const inputSchema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object' as const,
      $defs: { unit: { type: 'string', enum: ['c', 'f'] } },
      properties: { city: { type: 'string', description: 'City' }, unit: { $ref: '#/$defs/unit' } },
      required: ['city'],
      additionalProperties: false,
    };
    const copy = structuredClone(inputSchema);
    mcp.registerTool(
      'weather',
      { title: 'Weather', description: 'Current weather', inputSchema, annotations: { readOnlyHint: true, openWorldHint: true }, icons: [{ src: 'https://x/i.png' }] },
      () => 'sunny',
    );
    const { client } = await connect(mcp);
    const { tools } = (await client.request('tools/list')) as any;
    expect(tools).to.deep.equal([
      {
        name: 'weather',
        title: 'Weather',
        description: 'Current weather',
        inputSchema: copy,
        annotations: { readOnlyHint: true, openWorldHint: true },
        icons: [{ src: 'https://x/i.png' }],
      },
    ]);
    // The caller's object was neither changed nor frozen.
    expect(inputSchema).to.deep.equal(copy);
    expect(Object.isFrozen(inputSchema)).to.equal(false);
  });

  it('calls a tool with its arguments; a missing "arguments" field is taken as {}', async () => {
    const { mcp } = makeServer();
    const seen: unknown[] = [];
    mcp.registerTool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, (args) => {
      seen.push(args);
      return `echo: ${String(args.text ?? '')}`;
    });
    const { client } = await connect(mcp);
    expect(await client.request('tools/call', { name: 'echo', arguments: { text: 'hi' } })).to.deep.equal({ content: [{ type: 'text', text: 'echo: hi' }] });
    expect(await client.request('tools/call', { name: 'echo' })).to.deep.equal({ content: [{ type: 'text', text: 'echo: ' }] });
    expect(seen).to.deep.equal([{ text: 'hi' }, {}]);
  });

  it('[TOOL-012] arguments of the wrong type: isError result naming the field, handler not called', async () => {
    const { mcp } = makeServer();
    let called = false;
    mcp.registerTool(
      'add',
      { inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } },
      () => {
        called = true;
        return 'x';
      },
    );
    const { client } = await connect(mcp);
    const r = (await client.request('tools/call', { name: 'add', arguments: { a: 'one', b: 2 } })) as any;
    expect(r.isError).to.equal(true);
    expect(r.content[0].type).to.equal('text');
    expect(r.content[0].text).to.contain('Invalid arguments for tool "add"').and.to.contain('a:').and.to.contain('number');
    const missing = (await client.request('tools/call', { name: 'add', arguments: { a: 1 } })) as any;
    expect(missing.isError).to.equal(true);
    expect(missing.content[0].text).to.contain('"b"');
    expect(called).to.equal(false);
  });

  it('[TOOL-012] "arguments" that is not an object is a protocol error -32602', async () => {
    const { mcp } = makeServer();
    mcp.registerTool('t', {}, () => 'x');
    const { client } = await connect(mcp);
    const err = await rejection(client.request('tools/call', { name: 't', arguments: [1, 2] }));
    expect(err.code).to.equal(-32602);
    expect(err.message).to.contain('"arguments" must be an object');
  });

  it('an unknown tool is -32602 "Unknown tool"; so is a disabled one, and a call without a name', async () => {
    const { mcp } = makeServer();
    const h = mcp.registerTool('known', {}, () => 'x');
    const { client } = await connect(mcp);
    const err = await rejection(client.request('tools/call', { name: 'nope', arguments: {} }));
    expect(err).to.be.instanceOf(McpError);
    expect(err.code).to.equal(-32602);
    expect(err.message).to.equal('Unknown tool: nope');
    h.disable();
    expect((await rejection(client.request('tools/call', { name: 'known' }))).code).to.equal(-32602);
    expect((await rejection(client.request('tools/call', { arguments: {} }))).code).to.equal(-32602);
  });

  it('a handler that throws gives an isError result with its message; a business error result passes through', async () => {
    const { mcp } = makeServer();
    mcp.registerTool('boom', {}, () => {
      throw new Error('database unreachable');
    });
    mcp.registerTool('refuse', {}, () => ({ content: [text('Rate limit exceeded')], isError: true }));
    mcp.registerTool('async-boom', {}, async () => {
      throw new McpError(-32602, 'bad things');
    });
    const { client } = await connect(mcp);
    expect(await client.request('tools/call', { name: 'boom' })).to.deep.equal({
      content: [{ type: 'text', text: 'Tool "boom" failed: database unreachable' }],
      isError: true,
    });
    expect(await client.request('tools/call', { name: 'refuse' })).to.deep.equal({ content: [{ type: 'text', text: 'Rate limit exceeded' }], isError: true });
    const r = (await client.request('tools/call', { name: 'async-boom' })) as any;
    expect(r.isError).to.equal(true);
    expect(r.content[0].text).to.contain('bad things');
  });

  it('[TOOL-069] callTool hands a tool execution error back as a result (isError, with its text) for the model to read and correct, not as an exception', async () => {
    const { mcp } = makeServer();
    mcp.registerTool('lookup', { inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }, (args) => {
      throw new Error(`no city named ${String(args.city)}; try a capital`);
    });
    mcp.registerTool('w', { outputSchema: { type: 'object', properties: { t: { type: 'number' } }, required: ['t'] } }, () => ({ content: [text('sensor offline')], isError: true }));
    const { client } = await connect(mcp);
    await client.listTools();
    const failed = await client.callTool('lookup', { city: 'Atlantis' });
    expect(failed).to.deep.equal({ content: [{ type: 'text', text: 'Tool "lookup" failed: no city named Atlantis; try a capital' }], isError: true });
    const invalid = await client.callTool('lookup', { town: 'Paris' });
    expect(invalid.isError).to.equal(true);
    expect((invalid.content[0] as { text: string }).text).to.contain('"city"');
    // An error result of a tool with an outputSchema has no structuredContent: still a result.
    expect(await client.callTool('w', {})).to.deep.equal({ content: [{ type: 'text', text: 'sensor offline' }], isError: true });
  });

  it('[TOOL-064] warns the tool author who mirrors a sensitive-looking parameter in a header (x-mcp-header), and only then', async () => {
    const warnings: string[] = [];
    const emit = process.emitWarning;
    process.emitWarning = ((w: string | Error, o?: { type?: string }) => {
      if (o?.type === 'McpSensitiveHeaderWarning') warnings.push(String(w));
    }) as typeof process.emitWarning;
    try {
      const { mcp } = makeServer();
      const mirrored = (props: Record<string, string>) => ({
        type: 'object' as const,
        properties: Object.fromEntries(Object.entries(props).map(([name, header]) => [name, { type: 'string', 'x-mcp-header': header }])),
      });
      mcp.registerTool('deploy', { inputSchema: mirrored({ region: 'Region', api_key: 'Key', max_tokens: 'Max', githubToken: 'Gh' }) }, () => 'ok');
      mcp.registerTool('login', { inputSchema: mirrored({ user: 'User', password: 'Password' }) }, () => 'ok');
      const safe = mcp.registerTool('search', { inputSchema: mirrored({ query: 'Query', author: 'Author', tokens: 'Tokens' }) }, () => 'ok');
      await settle();
      expect(warnings).to.have.length(3);
      expect(warnings[0]).to.contain('Tool "deploy": parameter "api_key"').and.contain('Mcp-Param-Key');
      expect(warnings[1]).to.contain('parameter "githubToken"');
      expect(warnings[2]).to.contain('Tool "login": parameter "password"');
      // A change of schema is checked again.
      safe.update({ inputSchema: mirrored({ query: 'Query', session_token: 'Session' }) });
      await settle();
      expect(warnings).to.have.length(4);
      expect(warnings[3]).to.contain('parameter "session_token"');
    } finally {
      process.emitWarning = emit;
    }
  });

  it('a required URL elicitation (-32042) stays a protocol error', async () => {
    const { mcp } = makeServer();
    mcp.registerTool('needs-auth', {}, () => {
      throw new McpError(-32042, 'Authorization required', { elicitations: [] });
    });
    const { client } = await connect(mcp);
    const err = await rejection(client.request('tools/call', { name: 'needs-auth' }));
    expect(err.code).to.equal(-32042);
    expect(err.data).to.deep.equal({ elicitations: [] });
  });

  describe('output schema', () => {
    const outputSchema = {
      type: 'object' as const,
      properties: { temperature: { type: 'number' }, conditions: { type: 'string' } },
      required: ['temperature', 'conditions'],
    };

    it('[TOOL-010] [TOOL-009] valid structuredContent is sent with a JSON text rendering when the handler gave no content', async () => {
      const { mcp } = makeServer();
      mcp.registerTool('w', { outputSchema }, () => ({ structuredContent: { temperature: 22.5, conditions: 'cloudy' } }));
      mcp.registerTool('w2', { outputSchema }, () => ({ content: [text('22.5 and cloudy')], structuredContent: { temperature: 22.5, conditions: 'cloudy' } }));
      const { client } = await connect(mcp);
      const { tools } = (await client.request('tools/list')) as any;
      expect(tools[0].outputSchema).to.deep.equal(outputSchema);
      const r = (await client.request('tools/call', { name: 'w' })) as any;
      expect(r.structuredContent).to.deep.equal({ temperature: 22.5, conditions: 'cloudy' });
      expect(JSON.parse(r.content[0].text)).to.deep.equal(r.structuredContent);
      const r2 = (await client.request('tools/call', { name: 'w2' })) as any;
      expect(r2.content).to.deep.equal([{ type: 'text', text: '22.5 and cloudy' }]);
    });

    it('[TOOL-010] structuredContent that does not match the outputSchema is an isError result, not sent', async () => {
      const { mcp } = makeServer();
      mcp.registerTool('w', { outputSchema }, () => ({ structuredContent: { temperature: 'hot', conditions: 'sunny' } }));
      mcp.registerTool('none', { outputSchema }, () => 'no structure');
      const { client } = await connect(mcp);
      const r = (await client.request('tools/call', { name: 'w' })) as any;
      expect(r.isError).to.equal(true);
      expect(r).to.not.have.property('structuredContent');
      expect(r.content[0].text).to.contain('does not match its outputSchema').and.to.contain('temperature');
      const r2 = (await client.request('tools/call', { name: 'none' })) as any;
      expect(r2.isError).to.equal(true);
      expect(r2.content[0].text).to.contain('returned no structuredContent');
    });

    it('an isError result of a tool with an outputSchema needs no structuredContent', async () => {
      const { mcp } = makeServer();
      mcp.registerTool('w', { outputSchema }, () => ({ content: [text('API down')], isError: true }));
      const { client } = await connect(mcp);
      expect(await client.request('tools/call', { name: 'w' })).to.deep.equal({ content: [{ type: 'text', text: 'API down' }], isError: true });
    });
  });

  describe('Standard Schema validators (zod 4)', () => {
    it('lists the converted JSON Schema and validates with the validator, handing its output to the handler', async () => {
      const { mcp } = makeServer();
      const seen: unknown[] = [];
      mcp.registerTool(
        'greet',
        {
          inputSchema: z.object({ name: z.string().describe('Who'), times: z.number().int().default(1) }),
          outputSchema: z.object({ greeting: z.string() }),
        },
        (args) => {
          seen.push(args);
          const name: string = args.name;
          return { structuredContent: { greeting: `hello ${name} x${args.times}` } };
        },
      );
      const { client } = await connect(mcp);
      const { tools } = (await client.request('tools/list')) as any;
      expect(tools[0].inputSchema.type).to.equal('object');
      expect(tools[0].inputSchema.properties.name).to.deep.include({ type: 'string', description: 'Who' });
      expect(tools[0].inputSchema.required).to.deep.equal(['name']);
      expect(tools[0].outputSchema.properties.greeting).to.deep.include({ type: 'string' });
      const r = (await client.request('tools/call', { name: 'greet', arguments: { name: 'Ada' } })) as any;
      expect(r.structuredContent).to.deep.equal({ greeting: 'hello Ada x1' });
      expect(seen).to.deep.equal([{ name: 'Ada', times: 1 }]);
      const bad = (await client.request('tools/call', { name: 'greet', arguments: { name: 42 } })) as any;
      expect(bad.isError).to.equal(true);
      expect(bad.content[0].text).to.contain('name:');
    });

    it('refuses a schema whose root is not an object', () => {
      const { mcp } = makeServer();
      expect(() => mcp.registerTool('t', { inputSchema: z.string() as any }, () => 'x')).to.throw(TypeError, /type "object"/);
      expect(() => mcp.registerTool('u', { inputSchema: { type: 'array' } as any }, () => 'x')).to.throw(TypeError, /type "object"/);
    });
  });

  it('[TOOL-012] validates draft-07 schemas (definitions) when $schema says so', async () => {
    const { mcp } = makeServer();
    mcp.registerTool(
      'd7',
      {
        inputSchema: {
          $schema: 'http://json-schema.org/draft-07/schema#',
          type: 'object',
          definitions: { pos: { type: 'integer', minimum: 1 } },
          properties: { n: { $ref: '#/definitions/pos' } },
          required: ['n'],
        },
      },
      (args) => `n=${String(args.n)}`,
    );
    const { client } = await connect(mcp);
    expect(await client.request('tools/call', { name: 'd7', arguments: { n: 3 } })).to.deep.equal({ content: [{ type: 'text', text: 'n=3' }] });
    const r = (await client.request('tools/call', { name: 'd7', arguments: { n: 0 } })) as any;
    expect(r.isError).to.equal(true);
    expect(r.content[0].text).to.contain('n:');
  });

  it('[TOOL-015] returns every kind of content block; a malformed block is an isError result, never sent as is', async () => {
    const { mcp } = makeServer();
    mcp.registerTool('all', {}, () => [
      text('t'),
      image(PNG, 'image/png'),
      audio(new Uint8Array([1, 2, 3]), 'audio/wav'),
      resourceLink({ uri: 'file:///a.rs', name: 'a.rs', mimeType: 'text/x-rust' }),
      embeddedResource({ uri: 'file:///b.txt', mimeType: 'text/plain', text: 'hello' }),
    ]);
    mcp.registerTool('bad', {}, () => ({ content: [{ type: 'image', data: '***', mimeType: 'image/png' }] as any }));
    const { client } = await connect(mcp);
    const r = (await client.request('tools/call', { name: 'all' })) as any;
    expect(r.content.map((b: any) => b.type)).to.deep.equal(['text', 'image', 'audio', 'resource_link', 'resource']);
    expect(r.content[2].data).to.equal('AQID');
    const bad = (await client.request('tools/call', { name: 'bad' })) as any;
    expect(bad.isError).to.equal(true);
    expect(bad.content[0].text).to.contain('base64');
  });

  it('content helpers refuse data that is not base64 or a MIME type that is not one', () => {
    expect(() => image('not base64!', 'image/png')).to.throw(TypeError, /base64/);
    expect(() => audio(PNG, 'wav')).to.throw(TypeError, /MIME/);
    expect(() => embeddedResource({ uri: 'x:/y', mimeType: 'nope', text: 'a' })).to.throw(TypeError, /MIME/);
    expect(() => resourceLink({ uri: '', name: 'n' })).to.throw(TypeError, /uri/);
  });

  it('handlers report progress and log through their context', async () => {
    const { mcp } = makeServer();
    mcp.registerTool('work', {}, async (_args, ctx) => {
      ctx.progress(1, 2, 'half');
      ctx.log.info({ step: 'one' }, 'worker');
      ctx.progress(2, 2);
      return 'done';
    });
    const { client, notes } = await connect(mcp);
    const progress: unknown[] = [];
    const { result, progress$ } = client.requestWithProgress('tools/call', { name: 'work' });
    progress$.subscribe((p) => progress.push(p));
    expect(await result).to.deep.equal({ content: [{ type: 'text', text: 'done' }] });
    await settle();
    expect(progress).to.deep.equal([
      { progress: 1, total: 2, message: 'half' },
      { progress: 2, total: 2 },
    ]);
    expect(notes.filter((n) => n.method === 'notifications/message').map((n) => n.params)).to.deep.equal([
      { level: 'info', data: { step: 'one' }, logger: 'worker' },
    ]);
  });

  it('handles update, disable, enable and remove the tool', async () => {
    const { mcp } = makeServer();
    const h = mcp.registerTool('a', { description: 'first' }, () => 'A');
    mcp.registerTool('b', {}, () => 'B');
    const { client } = await connect(mcp);
    const names = async () => ((await client.request('tools/list')) as any).tools.map((t: any) => `${t.name}:${t.description ?? ''}`);
    expect(await names()).to.deep.equal(['a:first', 'b:']);
    h.update({ description: 'second', handler: () => 'A2' });
    expect(await names()).to.deep.equal(['a:second', 'b:']);
    expect(await client.request('tools/call', { name: 'a' })).to.deep.equal({ content: [{ type: 'text', text: 'A2' }] });
    h.update({ name: 'a2' });
    expect(h.name).to.equal('a2');
    expect(await names()).to.deep.equal(['a2:second', 'b:']);
    h.disable();
    expect(h.enabled).to.equal(false);
    expect(await names()).to.deep.equal(['b:']);
    h.enable();
    expect(await names()).to.deep.equal(['a2:second', 'b:']);
    h.remove();
    expect(await names()).to.deep.equal(['b:']);
    expect(() => h.update({ description: 'x' })).to.throw(/No tool named "a2"/);
    expect(() => mcp.registerTool('b', {}, () => 'again')).to.throw(/already registered/);
  });

  it('[TOOL-047] [TOOL-049] [TOOL-050] a name outside 1-128 characters of A-Z a-z 0-9 _ - . is registered, with a McpToolNameWarning on stderr', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => void warnings.push(w);
    process.on('warning', onWarning);
    try {
      const { mcp } = makeServer();
      mcp.registerTool('get_weather.v2-beta', {}, () => 'ok');
      mcp.registerTool('get weather, now', {}, () => 'spaced');
      mcp.registerTool('x'.repeat(129), {}, () => 'long');
      await new Promise((r) => setImmediate(r));
      const named = warnings.filter((w) => w.name === 'McpToolNameWarning').map((w) => w.message);
      expect(named).to.have.length(2);
      expect(named[0]).to.contain('"get weather, now"');
      expect(named[1]).to.contain('x'.repeat(129));
      const { client } = await connect(mcp);
      expect((await client.callTool('get weather, now', {})).content).to.deep.equal([{ type: 'text', text: 'spaced' }]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('[TOOL-048] [TOOL-051] names are case-sensitive and unique: "Echo" and "echo" are two tools, a second "echo" is refused', async () => {
    const { mcp } = makeServer();
    mcp.registerTool('echo', {}, () => 'lower');
    mcp.registerTool('Echo', {}, () => 'upper');
    expect(() => mcp.registerTool('echo', {}, () => 'again')).to.throw(/already registered/);
    const { client } = await connect(mcp);
    expect((await client.listTools()).map((t) => t.name)).to.deep.equal(['echo', 'Echo']);
    expect((await client.callTool('Echo', {})).content).to.deep.equal([{ type: 'text', text: 'upper' }]);
    expect((await client.callTool('echo', {})).content).to.deep.equal([{ type: 'text', text: 'lower' }]);
  });

  it('[TOOL-013] handlers see who is calling (the transport\'s authInfo) and can refuse', async () => {
    const { mcp } = makeServer();
    mcp.registerTool('admin-only', {}, (_args, ctx) => {
      const who = ctx.authInfo as { role?: string } | undefined;
      if (who?.role !== 'admin') return { content: [text('Forbidden: admins only')], isError: true };
      return 'done';
    });
    const [a, b] = createMemoryPair();
    (a as { authInfo?: unknown }).authInfo = { role: 'viewer' };
    await mcp.connect(a);
    const client = new Client({ era: 'legacy', info: CLIENT_INFO });
    await client.connect(b);
    expect(await client.request('tools/call', { name: 'admin-only' })).to.deep.equal({ content: [{ type: 'text', text: 'Forbidden: admins only' }], isError: true });
  });

  it('exposes the registry as immutable state', async () => {
    const { mcp } = makeServer();
    const versions: number[] = [];
    mcp.tools$.subscribe((s) => versions.push(s.version));
    mcp.registerTool('a', {}, () => 'A');
    const before = mcp.tools.state;
    mcp.registerTool('b', {}, () => 'B');
    expect(versions).to.deep.equal([0, 1, 2]);
    expect(before.entries.size).to.equal(1);
    expect(Object.isFrozen(mcp.tools.state.entries.get('a'))).to.equal(true);
    expect(() => (mcp.tools.state.entries as Map<string, unknown>).set('c', {})).to.throw();
  });
});
