/**
 * The 2026-07-28 (modern, stateless) Streamable HTTP rows: the SDK v2 client pinned to that
 * revision (`versionNegotiation: { mode: { pin: '2026-07-28' } }`: it probes with
 * `server/discover` at connect, then every request carries its version, capabilities and client
 * info in `_meta`, no session) against a server in a child process: the SDK v2's
 * `createMcpHandler` (`servers/sdk2-modern-http.ts`) or ours (`servers/ours-http.ts --modern`, the
 * same handler that serves the 2025 rows).
 *
 * Before connecting, a raw `server/discover` request tells whether the server serves the modern
 * era at all: a build of ours without it answers with an error, and the row says "not available
 * on this build" instead of failing the run.
 *
 * With `client: 'undici'` the calls are the same modern requests written by hand (the envelope in
 * `_meta`, `MCP-Protocol-Version` / `Mcp-Method` / `Mcp-Name` headers) on a keep-alive undici
 * Agent: the SDK v2 client spends ~500 µs of CPU per call, more than either server, and bounds
 * the throughput of both rows alike; this client shows the servers' own throughput.
 */
import { Client as Sdk2Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Agent, request } from 'undici';
import { Client } from '../lib/entries/client.js';
import { createStreamableHttpClientTransport } from '../streams/streamable-http-client.js';
import { CLIENT_INFO, MODERN_REVISION, TEXT, TOOL, type ModernClient, type ModernServer, type RequestMemoryResult } from './common.js';
import type { Driver } from './drivers.js';
import { forkServer, type ServerChild } from './http-drivers.js';

export interface ModernDriver extends Driver {
  readonly server: ServerChild;
}

/** The server does not serve the 2026-07-28 era (the reason says what it answered). */
export class ModernUnavailable extends Error {
  override readonly name = 'ModernUnavailable';
}

/** The `_meta` envelope every modern request carries. */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
};

type Reply = { result?: unknown; error?: { code?: number; message?: string } };

/** Reads a JSON-RPC response from a JSON body or from the `data:` line of a one-event SSE body. */
function responseOf(text: string): Reply {
  if (!text.startsWith('{')) {
    const start = text.indexOf('data: ') + 6;
    text = text.slice(start, text.indexOf('\n', start));
  }
  return JSON.parse(text) as Reply;
}

/**
 * Whether the server at `url` serves a modern `server/discover` (headers and `_meta` as the
 * revision's Streamable HTTP binding has them): undefined if it does, else what it answered.
 */
export async function probeModern(url: string): Promise<string | undefined> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 'bench-probe',
    method: 'server/discover',
    params: { _meta: ENVELOPE },
  });
  const res = await request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN_REVISION,
      'mcp-method': 'server/discover',
    },
    body,
  });
  const text = await res.body.text();
  let reply: Reply = {};
  try {
    reply = responseOf(text);
  } catch {
    // Not JSON: reported below.
  }
  const versions = (reply.result as { supportedVersions?: unknown } | undefined)?.supportedVersions;
  if (Array.isArray(versions) && versions.includes(MODERN_REVISION)) return undefined;
  const what = reply.error ? `error ${reply.error.code}: ${reply.error.message}` : text.slice(0, 120) || '(empty body)';
  return `server/discover ${MODERN_REVISION} answered HTTP ${res.statusCode}, ${what}`;
}

interface Caller {
  call(): Promise<string>;
  close(): Promise<void>;
}

/** SDK v2 `Client` pinned to the revision; throws ModernUnavailable if it cannot connect in that era. */
async function sdk2Caller(url: string): Promise<Caller> {
  const client = new Sdk2Client(CLIENT_INFO, { versionNegotiation: { mode: { pin: MODERN_REVISION } } });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  } catch (e) {
    throw new ModernUnavailable(`the SDK v2 client pinned to ${MODERN_REVISION} could not connect: ${e instanceof Error ? e.message : String(e)}`);
  }
  const version = client.getNegotiatedProtocolVersion();
  if (version !== MODERN_REVISION) throw new ModernUnavailable(`the SDK v2 client negotiated ${version}, not ${MODERN_REVISION}`);
  const params = { name: TOOL, arguments: { text: TEXT } };
  return {
    call: () => client.callTool(params).then((r) => String((r as { content?: { text?: unknown }[] }).content?.[0]?.text)),
    close: () => client.close(),
  };
}

/**
 * Our `Client` in the modern era as a user writes it, `callTool`: `era: 'modern'` (the native
 * rows), or no era at all (`defaults`: it finds the era itself). ModernUnavailable if it cannot.
 */
async function oursCaller(url: string, defaults = false): Promise<Caller> {
  const client = new Client(defaults ? { info: CLIENT_INFO } : { info: CLIENT_INFO, era: 'modern' });
  try {
    await client.connect(createStreamableHttpClientTransport(url));
  } catch (e) {
    throw new ModernUnavailable(`our client in the modern era could not connect: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (client.protocolVersion !== MODERN_REVISION) throw new ModernUnavailable(`our client speaks ${client.protocolVersion}, not ${MODERN_REVISION}`);
  return {
    call: () => client.callTool(TOOL, { text: TEXT }).then((r) => String((r as { content?: { text?: unknown }[] }).content?.[0]?.text)),
    close: () => client.close(),
  };
}

/** The same `tools/call` requests by hand on a keep-alive undici Agent (one connection per request in flight). */
function undiciCaller(url: string): Caller {
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN_REVISION,
    'mcp-method': 'tools/call',
    'mcp-name': TOOL,
  };
  let nextId = 0;
  return {
    async call() {
      const body = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name: TOOL, arguments: { text: TEXT }, _meta: ENVELOPE } });
      const res = await request(url, { method: 'POST', headers, body, dispatcher: agent });
      const reply = responseOf(await res.body.text());
      if (res.statusCode !== 200 || reply.error) throw new Error(`tools/call: HTTP ${res.statusCode} ${JSON.stringify(reply.error)}`);
      return String((reply.result as { content?: { text?: unknown }[] }).content?.[0]?.text);
    },
    close: () => agent.close(),
  };
}

/**
 * Starts the server (with --expose-gc) and connects `client` in the modern era; throws
 * ModernUnavailable if the server does not serve it.
 */
export async function createModernDriver(which: ModernServer, client: ModernClient = 'sdk2'): Promise<ModernDriver> {
  const server = await forkServer(which === 'ours' ? 'ours-http' : 'sdk2-modern-http', which === 'ours' ? ['--modern'] : [], ['--expose-gc', '--no-flush-bytecode']);
  try {
    const unavailable = await probeModern(server.url);
    if (unavailable !== undefined) throw new ModernUnavailable(unavailable);
    // 'native': each server with its own SDK's client (ours with ours, SDK v2 with SDK v2): like with like.
    // 'ours': our client with default options on either server (client against client).
    const caller =
      client === 'ours'
        ? await oursCaller(server.url, true)
        : client === 'sdk2' || (client === 'native' && which !== 'ours')
          ? await sdk2Caller(server.url)
          : client === 'native'
            ? await oursCaller(server.url)
            : undiciCaller(server.url);
    const clientName = client === 'undici' ? 'undici' : client === 'ours' || (client === 'native' && which === 'ours') ? 'our client' : 'sdk v2 client';
    const driver: ModernDriver = {
      label: `${clientName} (${MODERN_REVISION}) → ${which === 'ours' ? 'ours' : 'sdk v2'} server`,
      server,
      serverPid: server.pid,
      call: () => caller.call(),
      async close() {
        await caller.close();
        await server.close();
      },
    };
    const text = await driver.call();
    if (text !== TEXT) throw new Error(`${driver.label}: echo returned ${JSON.stringify(text)}`);
    return driver;
  } catch (e) {
    await server.close();
    throw e;
  }
}

/**
 * The server's memory per answered request: GC, heap; `calls` sequential calls; GC, heap again.
 * A stateless path should keep nothing once a request is answered, so this is ~0 plus noise (tens
 * of bytes per request over 3,000). The server runs with --no-flush-bytecode: otherwise V8 drops
 * the bytecode of functions not run lately during the GCs, and the heap shrinks over the run.
 */
export async function measureRequestMemory(driver: ModernDriver, calls: number): Promise<RequestMemoryResult> {
  const before = await driver.server.memory();
  for (let i = 0; i < calls; i++) await driver.call();
  const after = await driver.server.memory();
  return {
    calls,
    heapPerRequest: (after.heapUsed - before.heapUsed) / calls,
    rssPerRequest: (after.rss - before.rss) / calls,
    heapBefore: before.heapUsed,
    heapAfter: after.heapUsed,
  };
}
