/**
 * A demo server with every server feature, around a small field-notes notebook:
 *
 * - tools: `convert_units` (structured output with an outputSchema), `search_notes` (structured
 *   output), `add_note` (asks the user for details by elicitation), `summarize_note` (asks the
 *   client's model by sampling), `rebuild_index` (progress and log messages while it works),
 *   `survey_transect` (runs as a task: a client polls it, may cancel it, answers its question);
 * - resources: `notes://index`, `station://status` (changes every 5 s: subscribe to it), and
 *   the template `notes://note/{id}` (listed per note, ids completed);
 * - prompts: `review_note` (its `id` completed, the note embedded) and `weekly_review` (its
 *   `tag` completed);
 * - completions and logging; list changes and resource updates as notes are added;
 * - a skill, `skill://field-notes/SKILL.md` with `references/TAGS.md` (the skills extension).
 *
 *   node dist/examples/everything.js            # Streamable HTTP on http://127.0.0.1:$PORT/mcp (default 3000)
 *   node dist/examples/everything.js --fetch    # the same through the Web-standard fetch handler (a node:http bridge)
 *   bun dist/examples/everything.js             # the fetch handler on Bun.serve (--node-http: the node handler)
 *   deno run -A dist/examples/everything.js     # the fetch handler on Deno.serve (--node-http: the node handler)
 *   node dist/examples/everything.js --stdio    # stdio; everything but MCP frames goes to stderr
 *   node dist/examples/everything.js --redis redis://127.0.0.1:6379   # (or REDIS_URL=...) several
 *     processes behind a load balancer without sticky sessions share sessions, listen events, tasks
 *     and requestState on Redis (`npm run demo:cluster` starts three behind HAProxy); the notebook
 *     stays in each process's memory. MCP_TASK_LEASE_MS sets how soon another process fails a task
 *     whose process died (default 15 s)
 *   node dist/examples/everything.js --auth     # protected by the embedded OAuth authorization server
 *     (needs the optional oidc-provider): it listens on AUTH_PORT (default PORT + 1); sign in as
 *     MCP_DEMO_USER (default "demo") with MCP_DEMO_PASSWORD (one is made and printed when unset);
 *     MCP clients register themselves (DCR), tokens are audience-bound and DPoP-bound when the
 *     client sends proofs
 *
 * It prints a live log of sessions (their state changes), every frame in and out of them, and
 * each 2026-07-28 request (served without a session) as it ends.
 */
import { listen } from '../lib/http/listen-port.js';
import { serveFetch } from '../lib/http/serve-fetch.js';
import { runtimeName } from '../lib/runtime.js';
import type { RedisStore } from '../lib/redis/store.js';
import type { ServerSession } from '../lib/server.js';
import { createStdioServerTransport } from '../streams/stdio-server.js';
import { createMcpFetchHandler } from '../lib/server-bindings/fetch-handler.js';
import { createStreamableHttpHandler } from '../lib/server-bindings/streamable-http-server.js';
import { createEverythingServer } from './everything-server.js';
import { protectWithEmbeddedAuthorizationServer } from './everything-auth.js';

const stdio = process.argv.includes('--stdio');
/** Log lines: stdout over HTTP; stderr over stdio, where stdout carries the protocol. */
const out = (line: string) => (stdio ? process.stderr : process.stdout).write(line + '\n');
const color = (stdio ? process.stderr : process.stdout).isTTY ? (code: number, s: string) => `\x1b[${code}m${s}\x1b[0m` : (_: number, s: string) => s;
const short = (v: unknown, max = 160) => {
  const s = typeof v === 'string' ? v : preview(v);
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
};
/** JSON of a value for a log line; one a peer nested too deep to print is named, not thrown. */
function preview(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch (e) {
    return `[cannot show: ${(e as Error).message}]`;
  }
}

/**
 * `--redis URL` (or `REDIS_URL`): what several processes of this server share on Redis (listen
 * events, tasks, the requestState key and replay guard), as the one `store` option. Redis and the
 * `redis` package are needed only then.
 */
async function redisStoreFromArgs(): Promise<RedisStore | undefined> {
  const at = process.argv.indexOf('--redis');
  const url = at >= 0 ? process.argv[at + 1] : process.env.REDIS_URL;
  if (url === undefined || url === '' || url.startsWith('--')) {
    if (at >= 0) throw new Error('--redis needs a URL, e.g. --redis redis://127.0.0.1:6379');
    return undefined;
  }
  const { createRedisStore } = await import('../lib/redis/store.js');
  const leaseMs = Number(process.env.MCP_TASK_LEASE_MS);
  return createRedisStore({ url, ...(leaseMs > 0 && { tasks: { leaseMs } }) });
}
const store = await redisStoreFromArgs();

const { mcp, stats } = createEverythingServer({ store });

// ---------------------------------------------------------------------------------------- live log

let sessionNo = 0;
mcp.sessions$.subscribe((session: ServerSession) => {
  const label = color(35, `[session ${++sessionNo}]`);
  let lastPhase = '';
  session.state$.subscribe({
    next: () => {
      const phase = session.currentPhase;
      if (phase === lastPhase) return;
      lastPhase = phase;
      const who = session.peerInfo ? ` ${session.peerInfo.name} ${session.peerInfo.version}` : '';
      const rev = session.protocolVersion ? ` (revision ${session.protocolVersion})` : '';
      out(`${label} ${color(35, phase)}${phase === 'operating' ? who + rev : ''}`);
    },
    complete: () => out(`${label} ${color(35, 'gone')}`),
  });
  session.frames$.subscribe((f) => {
    const frame = f.frame as { method?: unknown } | undefined;
    if (f.direction === 'in' && frame?.method === 'tools/call') stats.toolCalls++;
    const arrow = f.direction === 'out' ? color(36, '→') : color(33, '←');
    out(`${label} ${arrow} ${short(f.frame)}`);
  });
});

// 2026-07-28 requests have no session: the server tells of each as it ends (legacy ones are in the frames above).
mcp.requests$.subscribe((r) => {
  if (r.era !== 'modern') return;
  // A call that asked for input counts once, when its last round is answered.
  if (r.method === 'tools/call' && r.outcome !== 'inputRequired') stats.toolCalls++;
  const what = r.name ?? r.uri;
  const rounds = r.round > 0 ? `, round ${r.round + 1}` : '';
  const asked = r.inputRequests > 0 ? `, ${r.inputRequests} input request${r.inputRequests === 1 ? '' : 's'}` : '';
  const error = r.error ? `: ${r.error.code} ${short(r.error.message, 80)}` : '';
  out(`${color(34, '[2026-07-28]')} ${r.method}${what === undefined ? '' : ` ${short(what, 60)}`} from ${r.caller}: ${color(34, r.outcome)}${error} in ${r.durationMs} ms${rounds}${asked}`);
});

// ----------------------------------------------------------------------------------------- serving

if (stdio) {
  const session = await mcp.connect(createStdioServerTransport());
  out('everything: serving over stdio');
  session.state$.subscribe({ complete: () => process.exit(0) });
} else {
  const onError = (e: Error) => out(color(31, `http error: ${e.message}`));
  const port = Number(process.env.PORT ?? 3000);
  const runtime = runtimeName();
  // Bun and Deno serve the fetch handler (Bun.serve, Deno.serve); Node the node handler unless --fetch.
  const viaFetch = process.argv.includes('--fetch') || (runtime !== 'node' && !process.argv.includes('--node-http'));
  // With --redis any process serves any session (no sticky sessions): the same store, for HTTP.
  const httpOptions = { onError, ...(store && { store }) };
  const withAuth = process.argv.includes('--auth');
  if (withAuth && viaFetch) throw new Error('--auth serves the node handler: leave out --fetch (or pass --node-http on Bun and Deno)');
  const auth = withAuth ? await protectWithEmbeddedAuthorizationServer({ port, authPort: Number(process.env.AUTH_PORT ?? port + 1), out }) : undefined;
  if (auth) mcp.use(auth.view);
  const server = viaFetch
    ? await serveFetch(createMcpFetchHandler(mcp, httpOptions), { port, logger: false })
    : await listen(auth ? auth.wrap(createStreamableHttpHandler(mcp.server, { ...httpOptions, authenticate: auth.authenticate })) : createStreamableHttpHandler(mcp.server, httpOptions), { port, logger: false });
  const how = viaFetch ? `fetch handler on ${runtime}` : runtime === 'node' ? 'node handler' : `node handler on ${runtime}`;
  out(`everything: MCP server (Streamable HTTP, ${how}) at ${color(32, server.url)}; Ctrl+C stops it`);
  if (store) {
    out(`everything: process ${process.pid} (id ${store.httpSessions.processId}) shares sessions, listen events, tasks and requestState on Redis (prefix ${store.prefix})`);
  }
  const stop = () => {
    out('everything: shutting down');
    // The tasks running here fail (other processes say so) before the store closes.
    void server
      .close()
      .then(() => auth?.close())
      .then(() => mcp.close())
      .then(() => store?.close())
      .then(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
