/**
 * The conventions' session histograms: `mcp.server.session.duration` for each session a server
 * serves (from `sessions$`), `mcp.client.session.duration` for a client's, from when it is watched
 * to when it ends. A 2026-07-28 exchange has no session, so only legacy-era sessions count.
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/#metric-mcpserversessionduration
 */
import type { Histogram } from '@opentelemetry/api';
import type { TransportPeer } from '../../streams/transport.js';
import { networkOf, type NetworkFacts } from './semconv.js';

/** What is read of a session: when it ends and the revision it settled on. */
export interface EndingSession {
  ended(): Promise<void>;
  readonly protocolVersion?: string | undefined;
  /** What its transport knows of the peer (a server session's: `pipe` on stdio, `tcp` over HTTP). */
  readonly transportPeer?: TransportPeer | undefined;
}

/** A stream of sessions (a server's `sessions$`), read without importing RxJS. */
export interface SessionSource {
  readonly sessions$: { subscribe(next: (session: EndingSession) => void): { unsubscribe(): void } };
}

/**
 * Record `session`'s duration on `histogram` once it ends. A client's names the server (`server.address`,
 * `server.port`: the one its transport addressed, behind any proxy); a server's never names its client
 * (a port per connection is no metric attribute).
 */
export function timeSession(histogram: Histogram, session: EndingSession, fallback: NetworkFacts | undefined, side: 'client' | 'server' = 'server'): void {
  const started = performance.now();
  void session.ended().then(() => {
    const network = networkOf(session.transportPeer) ?? fallback;
    const attrs: Record<string, string | number> = {};
    if (session.protocolVersion) attrs['mcp.protocol.version'] = session.protocolVersion;
    if (network?.transport) attrs['network.transport'] = network.transport;
    if (network?.protocolName) attrs['network.protocol.name'] = network.protocolName.toLowerCase();
    if (side === 'client' && network?.peerAddress) {
      attrs['server.address'] = network.peerAddress;
      if (network.peerPort !== undefined) attrs['server.port'] = network.peerPort;
    }
    histogram.record((performance.now() - started) / 1000, attrs);
  });
}
