// 2026-07-28: a server never initiates a JSON-RPC request. Our server asks for elicitation,
// sampling and roots inside the result (input_required) and takes the answers from the retried
// request; a handler that tries to send a raw request gets an error, and nothing goes on the wire.
import { expect } from 'chai';
import { Client, type FrameEvent } from '../../lib/entries/client.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createMemoryPair } from '../../streams/memory.js';

describe('modern: the server sends no requests (2026-07-28)', () => {
  it('[BASE-121] asks for input, a sample and the roots through input_required results, and refuses a raw request from a handler', async () => {
    const mcp = createMcpServer({ info: { name: 'asker', version: '1' } });
    mcp.registerTool('all', { description: 'asks for everything' }, async (_a, ctx) => {
      const who = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }, { inputKey: 'who' });
      const said = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 }, { inputKey: 'said' });
      const roots = await ctx.listRoots({ inputKey: 'roots' });
      const raw = await ctx.sendRequest('ping').then(
        () => 'sent',
        (e: Error) => `refused: ${e.message}`,
      );
      return JSON.stringify({ who: who.content?.name, said: (said.content as { text?: string }).text, roots: roots.roots.map((r) => r.uri), raw });
    });
    const [a, b] = createMemoryPair();
    await mcp.connect(a);
    const client = new Client({ info: { name: 'c', version: '1' }, era: 'auto' });
    client.setRoots([{ uri: 'file:///tmp/p', name: 'p' }]);
    client.onElicitation({ form: async () => ({ action: 'accept', content: { name: 'Ada' } }) });
    client.onSampling(async () => ({ role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'm' }));
    const frames: FrameEvent[] = [];
    client.frames$.subscribe((f) => frames.push(f));
    await client.connect(b);
    try {
      expect(client.era).to.equal('modern');
      const result = await client.callTool('all', {});
      const text = JSON.parse((result.content[0] as { text: string }).text) as Record<string, unknown>;
      expect(text).to.include({ who: 'Ada', said: 'hello' });
      expect(text.roots).to.deep.equal(['file:///tmp/p']);
      expect(text.raw).to.match(/^refused: /);
      const fromServer = frames.filter((f) => f.direction === 'in').map((f) => f.frame as { id?: unknown; method?: string; result?: { resultType?: string } });
      expect(fromServer.filter((f) => f.method !== undefined && f.id !== undefined), 'requests from the server').to.deep.equal([]);
      // The asks came as input_required results instead.
      expect(fromServer.filter((f) => f.result?.resultType === 'input_required').length).to.be.greaterThan(0);
    } finally {
      await client.close();
    }
  });
});
