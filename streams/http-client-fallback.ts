/**
 * The Streamable HTTP client's fallback to the deprecated HTTP+SSE transport: when POSTing
 * `initialize` fails with a 4xx, a server of 2024-11-05 may be listening at the same URL.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#backwards-compatibility
 */
import { TransportError } from '../lib/errors.js';
import { messageOf } from './http-client-common.js';
import { LegacySseChannel, type LegacySseChannelOptions } from './legacy-sse-client.js';

/**
 * Open the HTTP+SSE channel at `url` (its GET stream and the endpoint it names). `why` is what
 * the `initialize` POST got; when the GET fails too, the error says that neither transport answered.
 */
export async function openLegacyFallback(url: URL, options: LegacySseChannelOptions, why: string): Promise<{ channel: LegacySseChannel; endpoint: URL }> {
  const channel = new LegacySseChannel(url, options);
  try {
    return { channel, endpoint: await channel.open() };
  } catch (e) {
    throw new TransportError(
      `${url.href} speaks neither transport: POST initialize (Streamable HTTP) got ${why}; GET for the HTTP+SSE fallback: ${messageOf(e)}`,
      { url: url.href },
    );
  }
}
