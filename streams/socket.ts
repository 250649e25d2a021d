/**
 * MCP over a reliable bidirectional byte stream: a TCP or Unix-domain socket (`net.Socket`), or
 * any Duplex. It reuses the stdio binding's framing instead of defining one: UTF-8 JSON-RPC
 * messages, one per line, no embedded newlines; only the subprocess parts of stdio (launch,
 * stderr, process exit) are left out. Either side may use it.
 *
 * - Connection: the caller opens the socket (`net.connect`, or a `net.Server`'s `connection`
 *   event) and hands it over; the transport is open at once, and MCP's `initialize` (or the
 *   2026-07-28 envelope) follows as on any binding.
 * - Messages: each frame is written as one line; lines past `maxFrameBytes` arrive as an
 *   oversize marker the session answers, without buffering them.
 * - Closing: `close()` flushes what was sent and ends the socket (the peer reads end-of-input, as
 *   a stdio server reads its stdin closing). The peer ending its side closes this transport once
 *   the session has answered what it received (at most `drainTimeoutMs` later).
 * - Cancellation: `notifications/cancelled`, as everywhere; dropping the socket cancels nothing
 *   by itself.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports#custom-transports
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio
 */
import type { Duplex } from 'node:stream';
import type { Subscription } from 'rxjs';
import type { Frame } from '../lib/jsonrpc/message.js';
import { createStdioServerTransport, type StdioServerTransportOptions } from './stdio-server.js';
import type { Transport } from './transport.js';

/** Options of {@link createSocketTransport}. */
export type SocketTransportOptions = Pick<StdioServerTransportOptions, 'maxFrameBytes' | 'drainTimeoutMs' | 'clock'>;

/** A {@link Transport} over `socket`, framed as stdio is (one JSON-RPC message per line). */
export function createSocketTransport(socket: Duplex, options: SocketTransportOptions = {}): Transport {
  // The stdio server transport already frames any Readable/Writable pair; a socket is both ends.
  const lines = createStdioServerTransport({ ...options, stdin: socket, stdout: socket, redirectConsole: false });
  let watching: Subscription | undefined;
  const end = () => {
    watching?.unsubscribe();
    if (!socket.writableEnded) socket.end();
  };
  return {
    inbound$: lines.inbound$,
    state$: lines.state$,
    start: async () => {
      await lines.start();
      // However the transport ends (closed, the peer gone, a failure), the socket ends with it.
      watching = lines.state$.subscribe((s) => {
        if (s.phase === 'closed' || s.phase === 'failed') end();
      });
    },
    send: (frame: Frame) => lines.send(frame),
    close: async () => {
      await lines.close();
      end();
    },
  };
}
