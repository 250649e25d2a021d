// serverInfo and clientInfo are self-reported and unverified (DISC-004, BASE-107): for display,
// logging and debugging only. Our client sends the same requests whatever a server calls itself
// (nothing, an honest name, another product's name), and our server answers two clients that
// differ only in their clientInfo alike, in either era.
import { expect } from 'chai';
import { Client } from '../../lib/client.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createMemoryPair } from '../../streams/memory.js';

type Msg = { jsonrpc: '2.0'; id?: number | string; method?: string; params?: Record<string, any>; result?: Record<string, any> };
const V = '2026-07-28';
const INFO = 'io.modelcontextprotocol/serverInfo';

/** A raw 2026-07-28 server that names itself `serverInfo` (or not) in every result; keeps what the client sent. */
function rawServer(serverInfo: Record<string, unknown> | undefined) {
  const [a, b] = createMemoryPair();
  const seen: Msg[] = [];
  const meta = serverInfo === undefined ? {} : { _meta: { [INFO]: serverInfo } };
  const reply = (id: Msg['id'], result: Record<string, unknown>) => void b.send({ jsonrpc: '2.0', id: id!, result: { resultType: 'complete', ...result, ...meta } } as never);
  b.inbound$.subscribe((raw) => {
    const m = raw as Msg;
    seen.push(m);
    if (m.method === 'server/discover') reply(m.id, { supportedVersions: [V], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'public' });
    if (m.method === 'tools/list') reply(m.id, { tools: [{ name: 'echo', inputSchema: { type: 'object' } }], ttlMs: 0, cacheScope: 'public' });
    if (m.method === 'tools/call') reply(m.id, { content: [{ type: 'text', text: String(m.params?.arguments?.text) }] });
  });
  return { transport: a, seen };
}

/** What a client did against a server that calls itself `serverInfo`: the frames it sent and what it got. */
async function session(serverInfo: Record<string, unknown> | undefined) {
  const s = rawServer(serverInfo);
  const client = new Client({ era: 'auto', info: { name: 'spec', version: '1' } });
  await client.connect(s.transport);
  const tools = (await client.listTools()).tools.map((t) => t.name);
  const call = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
  const shown = client.serverInfo;
  await client.close();
  return { era: client.era, sent: s.seen.map((m) => ({ method: m.method, params: m.params, request: m.id !== undefined })), tools, call, shown };
}

describe('self-reported serverInfo and clientInfo change no behaviour', () => {
  it('[DISC-004] [BASE-107] 2026-07-28: the client sends the same requests whether the server names itself, names another product, or says nothing', async () => {
    const none = await session(undefined);
    const honest = await session({ name: 'notes', version: '1.0.0' });
    const impostor = await session({ name: 'mcp-actors', version: '99.0.0', title: 'Official reference server' });
    expect(none.era).to.equal('modern');
    expect(none.sent.map((m) => m.method)).to.include.members(['server/discover', 'tools/list', 'tools/call']);
    expect(honest.sent).to.deep.equal(none.sent);
    expect(impostor.sent).to.deep.equal(none.sent);
    expect([honest.tools, impostor.tools]).to.deep.equal([none.tools, none.tools]);
    expect(honest.call.content).to.deep.equal(none.call.content);
    expect(impostor.call.content).to.deep.equal(none.call.content);
    // shown for display, as told
    expect(impostor.shown).to.deep.include({ name: 'mcp-actors', version: '99.0.0' });
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`[BASE-107] ${era}: the server answers a client claiming to be another product exactly as it answers the first`, async () => {
      const mcp = createMcpServer({ info: { name: 'notes', version: '1' } });
      mcp.registerTool('whoami', {}, () => 'same for all');
      const answers: unknown[] = [];
      for (const info of [{ name: 'spec', version: '1' }, { name: 'claude-ai', version: '0.1.0', title: 'Trusted admin console' }]) {
        const [a, b] = createMemoryPair();
        await mcp.connect(b);
        const client = new Client({ era, info });
        await client.connect(a);
        answers.push({ caps: client.serverCapabilities, tools: (await client.listTools()).tools, call: (await client.callTool({ name: 'whoami', arguments: {} })).content });
        await client.close();
      }
      expect(answers[1]).to.deep.equal(answers[0]);
      await mcp.close();
    });
  }
});
