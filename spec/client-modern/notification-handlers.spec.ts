// The notification handlers a user registers with client.onNotification are called in the modern
// era (2026-07-28) as in the legacy era: log messages and progress of a request, list changes and
// resource updates on the listen stream, and a notification the client does not know itself.
// The same script runs against our McpServer in both eras; the handlers see the same things.
import { expect } from 'chai';
import { filter, firstValueFrom } from 'rxjs';
import { Client } from '../../lib/entries/client.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createMemoryPair } from '../../streams/memory.js';

const tick = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

/** Wait (on the real clock, bounded) until `test` holds. */
async function until(test: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

for (const era of ['modern', 'legacy'] as const) {
  describe(`client: user notification handlers in the ${era} era`, () => {
    it('logging messages, progress, list changes, resource updates and an unknown notification reach onNotification', async () => {
      const mcp = createMcpServer({ info: { name: 'notifier', version: '1.0.0' } });
      mcp.registerTool('work', {}, (_args, ctx) => {
        ctx.log.warning('careful');
        ctx.progress(1, 2, 'half');
        return 'done';
      });
      mcp.registerResource('status', 'status://now', {}, () => ({ contents: [{ text: 'ok' }] }));
      const [a, b] = createMemoryPair();
      await mcp.connect(b);
      const client = new Client({ info: { name: 'c', version: '1' }, era: era === 'legacy' ? 'legacy' : 'auto', logLevel: 'debug', listChangedDebounceMs: 0 });
      const heard: string[] = [];
      for (const method of ['notifications/message', 'notifications/tools/list_changed', 'notifications/resources/updated', 'notifications/custom/ping-me']) {
        client.onNotification(method, (params) => void heard.push(`${method} ${JSON.stringify((params as { level?: string; uri?: string })?.level ?? (params as { uri?: string })?.uri ?? '')}`));
      }
      await client.connect(a);
      expect(client.era).to.equal(era);
      if (era === 'legacy') await client.setLoggingLevel('debug');

      const progress: string[] = [];
      await client.callTool('work', {}, { onprogress: (p) => progress.push(p.message ?? '') });
      expect(progress).to.deep.equal(['half']);
      await until(() => heard.some((h) => h.startsWith('notifications/message')));
      expect(heard).to.include('notifications/message "warning"');

      // List changes and resource updates: observing tools$ and subscribing opens the stream.
      const tools = client.tools$.subscribe();
      const updates = client.subscribe('status://now').subscribe();
      await firstValueFrom(client.tools$.pipe(filter((t) => t.length === 1)));
      await tick(20);
      mcp.registerTool('more', {}, () => 'more');
      await until(() => heard.includes('notifications/tools/list_changed ""'));
      mcp.resources.notifyUpdated('status://now');
      await until(() => heard.includes('notifications/resources/updated "status://now"'));

      // A notification the client does not handle itself still reaches the user's handler.
      if (era === 'legacy') for (const s of mcp.server.sessions) s.notify('notifications/custom/ping-me', { level: 'custom' });
      // No session in the modern era: the frame goes out as a server's stream would carry it.
      else void b.send({ jsonrpc: '2.0', method: 'notifications/custom/ping-me', params: { level: 'custom' } } as never);
      await until(() => heard.includes('notifications/custom/ping-me "custom"'));

      tools.unsubscribe();
      updates.unsubscribe();
      await client.close();
      await mcp.close();
    });
  });
}
