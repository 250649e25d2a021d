// x-mcp-header and the POSTs themselves, end to end: our Client in the 2026-07-28 era against our Streamable HTTP server,
// which refuses a tools/call whose Mcp-Param-* headers are missing or differ from the body. A
// tool with an invalid annotation is left out of listTools, with a warning naming it.
import { expect } from 'chai';
import { Client, type ClientWarning } from '../../lib/entries/client.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';

describe('client: x-mcp-header over Streamable HTTP (2026-07-28)', () => {
  let http: Listening;
  const seen: Headers[] = [];
  const posts: { method: string; body: string }[] = [];

  beforeEach(async () => {
    const mcp = createMcpServer({ info: { name: 'routed', version: '1' } });
    const region = { type: 'string', 'x-mcp-header': 'Region' } as { type: 'string' };
    const bad = { type: 'string', 'x-mcp-header': 'Not A Token' } as { type: 'string' };
    mcp.registerTool('routed', { description: 'routes', inputSchema: { type: 'object', properties: { region } } }, (a) => `region ${String(a.region)}`);
    mcp.registerTool('broken', { description: 'bad annotation', inputSchema: { type: 'object', properties: { x: bad } } }, () => 'never');
    mcp.registerTool('plain', { description: 'no annotation' }, () => 'plain');
    mcp.registerTool('steps', { description: 'reports progress' }, async (_a, ctx) => {
      ctx.progress(1, 2);
      ctx.progress(2, 2);
      return 'stepped';
    });
    const tenant = { type: 'string', 'x-mcp-header': 'Tenant' } as { type: 'string' };
    mcp.registerTool('nested', { description: 'nested routing', inputSchema: { type: 'object', properties: { target: { type: 'object', properties: { tenant } } } } }, (a) => `tenant ${String((a.target as { tenant?: string }).tenant)}`);
    const count = { type: 'integer', 'x-mcp-header': 'Count' } as { type: 'integer' };
    mcp.registerTool('counted', { description: 'routes by count', inputSchema: { type: 'object', properties: { count } } }, (a) => `count ${String(a.count)}`);
    mcp.registerTool('ask', { description: 'asks a name' }, async (_a, ctx) => {
      const r = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
      return `hi ${String(r.content?.name)}`;
    });
    http = await listen(createStreamableHttpHandler(mcp.server), { logger: false });
    seen.length = 0;
    posts.length = 0;
  });
  afterEach(async () => {
    await http.close();
  });

  const connect = async () => {
    const client = new Client({ info: { name: 'c', version: '1' }, era: 'auto' });
    const warnings: ClientWarning[] = [];
    client.warnings$.subscribe((w) => warnings.push(w));
    await client.connect(
      createStreamableHttpClientTransport(http.url, {
        fetch: (input, init) => {
          seen.push(new Headers(init?.headers));
          posts.push({ method: init?.method ?? 'GET', body: typeof init?.body === 'string' ? init.body : '' });
          return fetch(input, init);
        },
      }),
    );
    return { client, warnings };
  };

  it('[HTTP-148] [HTTP-149] [TOOL-062] [TOOL-063] leaves a tool with an invalid x-mcp-header out of listTools and warns with its name and the reason', async () => {
    const { client, warnings } = await connect();
    try {
      expect(client.era).to.equal('modern');
      const names = (await client.listTools()).map((t) => t.name).sort();
      expect(names).to.deep.equal(['ask', 'counted', 'nested', 'plain', 'routed', 'steps']);
      const w = warnings.find((x) => x.kind === 'invalid-tool');
      expect(w?.message).to.contain('"broken"').and.to.contain('Not A Token');
    } finally {
      await client.close();
    }
  });

  it('[HTTP-137] [HTTP-138] [HTTP-159] [HTTP-161] mirrors the annotated argument so the server accepts the call, encoded when not ASCII', async () => {
    const { client } = await connect();
    try {
      await client.listTools();
      const r = await client.callTool('routed', { region: 'Zürich' });
      expect((r.content[0] as { text: string }).text).to.equal('region Zürich');
      const h = seen.find((x) => x.get('mcp-method') === 'tools/call')!;
      expect(h.get('mcp-param-region')).to.equal(`=?base64?${Buffer.from('Zürich').toString('base64')}?=`);
    } finally {
      await client.close();
    }
  });

  it('[HTTP-124] takes an answer as one JSON body or as an SSE stream (progress, then the result), on the default and the fetch path', async () => {
    const types: string[] = [];
    for (const fetchPath of [false, true]) {
      const client = new Client({ info: { name: 'c', version: '1' }, era: 'auto' });
      const spy: typeof fetch = async (input, init) => {
        const res = await fetch(input, init);
        types.push(res.headers.get('content-type') ?? '');
        return res;
      };
      await client.connect(createStreamableHttpClientTransport(http.url, fetchPath ? { fetch: spy } : {}));
      try {
        expect(client.era).to.equal('modern');
        const plain = await client.callTool('plain', {});
        expect((plain.content[0] as { text: string }).text).to.equal('plain');
        const progress: number[] = [];
        const stepped = await client.callTool('steps', {}, { onprogress: (p) => progress.push(p.progress) });
        expect((stepped.content[0] as { text: string }).text).to.equal('stepped');
        expect(progress, fetchPath ? 'fetch path' : 'default path').to.deep.equal([1, 2]);
      } finally {
        await client.close();
      }
    }
    // On the fetch path: the plain call was JSON, the one with progress an SSE stream.
    expect(types.filter((t) => t.startsWith('text/event-stream'))).to.have.length(1);
    expect(types.some((t) => t.startsWith('application/json'))).to.equal(true);
  });

  it('[HTTP-162] a call refused -32020 for a missing Mcp-Param header lists the tools again and is retried once with it', async () => {
    const { client } = await connect();
    try {
      // Never listed: the client does not know 'routed' mirrors region into a header yet.
      const r = await client.callTool('routed', { region: 'eu' });
      expect((r.content[0] as { text: string }).text).to.equal('region eu');
      const methods = seen.map((h) => h.get('mcp-method')).filter((m) => m === 'tools/call' || m === 'tools/list');
      expect(methods).to.deep.equal(['tools/call', 'tools/list', 'tools/call']);
      expect(seen.filter((h) => h.get('mcp-method') === 'tools/call').map((h) => h.get('mcp-param-region'))).to.deep.equal([null, 'eu']);
    } finally {
      await client.close();
    }
  });

  it('[TOOL-060] mirrors an argument nested under properties, which the server requires', async () => {
    const { client } = await connect();
    try {
      await client.listTools();
      const r = await client.callTool('nested', { target: { tenant: 'acme' } });
      expect((r.content[0] as { text: string }).text).to.equal('tenant acme');
      expect(seen.find((x) => x.get('mcp-name') === 'nested')!.get('mcp-param-tenant')).to.equal('acme');
    } finally {
      await client.close();
    }
  });

  it('[HTTP-144] [TOOL-059] refuses a call whose mirrored integer is outside ±(2^53−1) with -32020 naming the argument, and serves the largest safe one', async () => {
    const { client } = await connect();
    try {
      await client.listTools();
      const ok = await client.callTool('counted', { count: Number.MAX_SAFE_INTEGER });
      expect((ok.content[0] as { text: string }).text).to.equal(`count ${Number.MAX_SAFE_INTEGER}`);
      for (const count of [2 ** 53, -(2 ** 60), 1.5]) {
        const error = await client.callTool('counted', { count }).then(
          () => undefined,
          (e: unknown) => e as { code?: number; message?: string },
        );
        expect(error?.code, String(count)).to.equal(-32020);
        expect(error?.message).to.contain('"count"').and.to.contain('2^53');
      }
    } finally {
      await client.close();
    }
  });

  it('[HTTP-116] [HTTP-119] [HTTP-120] sends every message as a POST of one request or notification, never a response, through an input round too', async () => {
    const client = new Client({ info: { name: 'c', version: '1' }, era: 'auto' });
    client.onElicitation({ form: async () => ({ action: 'accept', content: { name: 'Ada' } }) });
    await client.connect(createStreamableHttpClientTransport(http.url, { fetch: (input, init) => (posts.push({ method: init?.method ?? 'GET', body: typeof init?.body === 'string' ? init.body : '' }), fetch(input, init)) }));
    try {
      const r = await client.callTool('ask');
      expect((r.content[0] as { text: string }).text).to.equal('hi Ada');
    } finally {
      await client.close();
    }
    const sent = posts.filter((p) => p.body !== '');
    expect(sent.length).to.be.greaterThan(2);
    expect(posts.map((p) => p.method).filter((m) => m !== 'POST')).to.deep.equal([]);
    for (const p of sent) {
      const msg = JSON.parse(p.body) as Record<string, unknown>;
      expect(Array.isArray(msg), p.body).to.equal(false);
      expect(msg.method, p.body).to.be.a('string');
      expect(msg, p.body).to.not.have.any.keys('result', 'error');
    }
  });
});
