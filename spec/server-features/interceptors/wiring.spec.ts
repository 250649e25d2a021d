// Server.use / McpServer.use / Client.use (issue 29): the public shape, wired at the one dispatch
// point of each side, in both eras (memory transport here; stdio and HTTP in the other specs).
import { expect } from 'chai';
import { Client } from '../../../lib/client.js';
import { createMcpServer } from '../../../lib/mcp-server.js';
import type { InterceptedRequest } from '../../../lib/server-features/interceptors/server-chain.js';
import type { OutgoingRequest } from '../../../lib/client-features/interceptors/client-chain.js';
import type { RequestRecord } from '../../../lib/session/server-request.js';
import { createMemoryPair } from '../../../streams/memory.js';

for (const era of ['legacy', 'modern'] as const) {
  describe(`interceptors: the use() shape (${era} era)`, () => {
    it('a server stage sees method, params, caller, id and _meta; a client stage adds _meta the handler sees; requests$ names the stage', async () => {
      const mcp = createMcpServer({ info: { name: 's', version: '1' } });
      let handlerMeta: unknown;
      mcp.registerTool('echo', { description: 'e' }, async (a: Record<string, unknown>, ctx) => {
        handlerMeta = ctx.meta?.['com.example/tag'];
        return `got ${JSON.stringify(a)}`;
      });
      const seen: InterceptedRequest[] = [];
      mcp.use(async function audit(req, next) {
        seen.push(req);
        return next();
      });
      const records: RequestRecord[] = [];
      mcp.requests$.subscribe((r) => records.push(r));
      const [a, b] = createMemoryPair();
      await mcp.connect(a);
      const client = new Client({ era, info: { name: 'c', version: '1' } });
      const out: OutgoingRequest[] = [];
      client.use(async (req, next) => {
        out.push(req);
        return next({ ...req.params, _meta: { ...(req.params?._meta as object | undefined), 'com.example/tag': 'from-client' } });
      });
      await client.connect(b);
      const r = await client.callTool({ name: 'echo', arguments: { a: 1 } });
      expect(r.content).to.deep.equal([{ type: 'text', text: 'got {"a":1}' }]);
      const call = seen.find((s) => s.method === 'tools/call')!;
      expect(call.kind).to.equal('request');
      expect(call.params?.name).to.equal('echo');
      expect(call.caller.era).to.equal(era);
      expect(call.caller.sessionId).to.equal(era === 'legacy' ? 'session-1' : undefined);
      expect(call.id).to.not.equal(undefined);
      expect(call.meta?.['com.example/tag']).to.equal('from-client');
      expect(call.signal).to.be.instanceOf(AbortSignal);
      expect(handlerMeta).to.equal('from-client');
      expect(out.find((o) => o.method === 'tools/call')?.era).to.equal(era);
      const rec = records.find((x) => x.method === 'tools/call')!;
      expect(rec.interceptors).to.deep.equal(['audit']);
      expect(rec.shortCircuitBy).to.equal(undefined);
      await client.close();
      await mcp.close();
    });
  });
}
