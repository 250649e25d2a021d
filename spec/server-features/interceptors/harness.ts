// Interceptor specs' harness: one McpServer served to our Client in either era over stdio framing
// (the real NDJSON stdio transport on in-process pipes) or real HTTP on a free 127.0.0.1 port.
import { PassThrough } from 'node:stream';
import { Client } from '../../../lib/client.js';
import type { Clock } from '../../../lib/clock.js';
import { listen, type Listening } from '../../../lib/http/listen-port.js';
import type { McpServer } from '../../../lib/mcp-server.js';
import type { RequestRecord } from '../../../lib/session/server-request.js';
import { createStdioServerTransport } from '../../../streams/stdio-server.js';
import { createStreamableHttpClientTransport } from '../../../streams/streamable-http-client.js';
import { createStreamableHttpHandler } from '../../../lib/server-bindings/streamable-http-server.js';

export type Era = 'legacy' | 'modern';
export type Wire = 'stdio' | 'http';
export const MATRIX: ReadonlyArray<{ era: Era; wire: Wire }> = [
  { era: 'legacy', wire: 'stdio' },
  { era: 'modern', wire: 'stdio' },
  { era: 'legacy', wire: 'http' },
  { era: 'modern', wire: 'http' },
];

export interface Connected {
  client: Client;
  records: RequestRecord[];
  close(): Promise<void>;
}

/** Serve `mcp` and connect a client of `era` to it over `wire`. */
export async function connect(mcp: McpServer, era: Era, wire: Wire, options: { clock?: Clock; timeout?: number; setup?: (client: Client) => void } = {}): Promise<Connected> {
  const records: RequestRecord[] = [];
  const sub = mcp.requests$.subscribe((r) => records.push(r));
  let http: Listening | undefined;
  let transport;
  if (wire === 'stdio') {
    const up = new PassThrough();
    const down = new PassThrough();
    await mcp.connect(createStdioServerTransport({ stdin: up, stdout: down, redirectConsole: false }));
    transport = createStdioServerTransport({ stdin: down, stdout: up, redirectConsole: false });
  } else {
    http = await listen(createStreamableHttpHandler(mcp.server), { logger: false });
    transport = createStreamableHttpClientTransport(http.url);
  }
  const client = new Client({
    era,
    info: { name: 'spec-client', version: '1' },
    ...(options.clock !== undefined && { clock: options.clock }),
    ...(options.timeout !== undefined && { timeout: options.timeout }),
  });
  options.setup?.(client);
  await client.connect(transport);
  return {
    client,
    records,
    close: async () => {
      sub.unsubscribe();
      await client.close().catch(() => {});
      await mcp.close();
      await http?.close();
    },
  };
}

/** Wait (real time, bounded) until `check` holds: for work on other turns, never for a timer. */
export async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`Timed out waiting for ${what}`);
}
