// A tools/call refused at once (an unknown tool) or a tool handler that throws at once: a stage
// that watches the answer with `.then` / `.catch` sees the refusal as a rejection, in both eras.
import { expect } from 'chai';
import { createMcpServer } from '../../../lib/mcp-server.js';
import { McpError } from '../../../lib/errors.js';
import { connect, type Connected } from './harness.js';

for (const era of ['legacy', 'modern'] as const) {
  describe(`server interceptors: a refusal at once (${era} era)`, () => {
    let c: Connected | undefined;
    afterEach(async () => {
      await c?.close();
      c = undefined;
    });

    it('a stage that is no async function sees an unknown tool as a rejection, and the client gets -32602', async () => {
      const mcp = createMcpServer({ info: { name: 'refusals', version: '1' } });
      mcp.registerTool('echo', { description: 'echoes' }, () => 'echo');
      const seen: unknown[] = [];
      mcp.use(function watcher(req, next) {
        if (req.method !== 'tools/call') return next();
        return next().then(
          (r) => {
            seen.push('answered');
            return r;
          },
          (e: unknown) => {
            seen.push((e as McpError).code);
            throw e;
          },
        );
      });
      c = await connect(mcp, era, 'stdio');
      const err = await c.client.request('tools/call', { name: 'nope', arguments: {} }).then(() => undefined, (e: unknown) => e);
      expect(err).to.be.instanceOf(McpError);
      expect((err as McpError).code).to.equal(-32602);
      const ok = await c.client.callTool({ name: 'echo', arguments: {} });
      expect(ok.content).to.deep.equal([{ type: 'text', text: 'echo' }]);
      expect(seen).to.deep.equal([-32602, 'answered']);
    });
  });
}
