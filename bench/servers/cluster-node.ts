/**
 * One process of the cluster figures (`bench/cluster.ts`): an McpServer over Streamable HTTP on
 * 127.0.0.1 (`PORT`, default a free one), sharing its sessions on Redis with `--redis <url>`
 * (in memory without; `CLUSTER_MAX_EVENTS` events kept per stream, default 1000). It prints `MCP server at <url> (process <id>)`. Tools:
 * - `echo {text}`: the text (the throughput workload);
 * - `burst {count}`: `count` progress notifications on the request's stream, one per turn of the
 *   event loop, then `done`;
 * - `tick {n}`: a server log message `{ n }` to every session (a fan-out through the store), and
 *   answers only once Redis has processed it: an answered tick was sent.
 */
import { listen } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { connectRedis } from '../../lib/redis/redis-connection.js';
import { RedisHttpSessions } from '../../lib/redis/http-sessions.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';

const flag = process.argv.indexOf('--redis');
const redisUrl = flag >= 0 ? process.argv[flag + 1] : undefined;
const client = redisUrl === undefined ? undefined : await connectRedis(redisUrl);
const httpSessions =
  client === undefined
    ? undefined
    : await RedisHttpSessions.create(client, {
        prefix: process.env.MCP_REDIS_PREFIX ?? 'bench',
        maxEventsPerStream: Number(process.env.CLUSTER_MAX_EVENTS ?? 1000),
        onError: (e) => process.stderr.write(`store: ${e.message}\n`),
      });

const mcp = createMcpServer({ info: { name: 'cluster-bench', version: '1.0.0' } });
mcp.registerTool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, (args) => String(args.text));
mcp.registerTool('burst', { inputSchema: { type: 'object', properties: { count: { type: 'number' } } } }, async (args, ctx) => {
  const count = Number(args.count);
  for (let i = 1; i <= count; i++) {
    ctx.sendProgress(i, count);
    await new Promise((r) => setImmediate(r));
  }
  return 'done';
});
mcp.registerTool('tick', { inputSchema: { type: 'object', properties: { n: { type: 'number' } } } }, async (args) => {
  mcp.log('info', { n: args.n });
  // Commands on one connection run in order: once PING is answered, the fan-out before it ran.
  await client?.ping();
  return String(args.n);
});

const handler = createStreamableHttpHandler(mcp.server, {
  ...(httpSessions && { store: { httpSessions } }),
  keepAliveMs: false,
  onError: (e) => process.stderr.write(`http: ${e.message}\n`),
});
const server = await listen(handler, { port: Number(process.env.PORT ?? 0), logger: false });
process.stdout.write(`MCP server at ${server.url}${httpSessions ? ` (process ${httpSessions.processId})` : ''}\n`);
const stop = () => {
  void server
    .close()
    .then(async () => {
      await httpSessions?.close();
      await client?.quit();
    })
    .finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
