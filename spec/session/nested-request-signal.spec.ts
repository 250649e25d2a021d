// A handler's request to the client ends with the request it serves: the session gives it the
// handler's signal unless its options carry one of their own (options without a signal are
// copied with it; see lib/jsonrpc/spread-copy.ts for how the copy is made).
import { expect } from 'chai';
import { createMcpServer } from '../../lib/mcp-server.js';
import { RawPeer, SERVER_INFO, initializeRaw, settle } from '../helpers/raw-peer.js';

describe('session: a handler request to the client follows its own request', () => {
  for (const [name, options] of [
    ['options without a signal', { timeout: 60_000 }],
    ['no options', undefined],
  ] as const) {
    it(`[CANCEL-004] [CANCEL-005] ${name}: the client's cancellation of the tool call cancels the server's roots/list, and the options given are left as they were`, async () => {
      const mcp = createMcpServer({ info: SERVER_INFO });
      const given = options === undefined ? undefined : { ...options };
      let ended: string | undefined;
      mcp.registerTool('ask', {}, async (_a, ctx) => {
        ended = await ctx.sendRequest('roots/list', {}, given).then(
          () => 'answered',
          (e: Error) => `failed: ${e.message}`,
        );
        return 'done';
      });
      const peer = new RawPeer();
      await mcp.connect(peer.transport);
      await initializeRaw(peer, '2025-11-25', { roots: {} });
      peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask', arguments: {} } });
      const asked = await peer.next((f) => f.method === 'roots/list');
      peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'user stopped' } });
      const cancelled = await peer.next((f) => f.method === 'notifications/cancelled');
      expect(cancelled.params.requestId).to.equal(asked.id);
      await settle();
      expect(ended).to.match(/^failed: /);
      expect(given).to.deep.equal(options === undefined ? undefined : { timeout: 60_000 });
      await mcp.close();
    });
  }
});
