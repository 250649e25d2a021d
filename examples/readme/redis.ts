// Several processes, one deployment: listen events, tasks and requestState shared on Redis. Run
// this same program as every process behind your load balancer (no sticky sessions for them).
import { createMcpServer, listen } from 'mcp-actors';
import { createRedisStore } from 'mcp-actors/redis';
import { createStreamableHttpHandler } from 'mcp-actors/streams';
import { setTimeout as sleep } from 'node:timers/promises';

const store = await createRedisStore({ url: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379' });
const mcp = createMcpServer({ info: { name: 'reports', version: '1.0.0' }, store });
mcp.registerTool('report', { execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
  await sleep(5_000, undefined, { signal: ctx.signal }); // meanwhile any process answers tasks/get for it
  return 'report ready';
});

const { url, close } = await listen(createStreamableHttpHandler(mcp.server), { port: Number(process.env['PORT'] ?? 0), logger: false });
console.log(url);
process.once('SIGTERM', async () => {
  await close();
  await mcp.close(); // a task still running here ends failed, saying the server stopped
  await store.close();
});
