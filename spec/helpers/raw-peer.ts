/**
 * A hand-driven peer for session tests: the far end of a memory pair, sending whatever frames
 * (or raw text) a test wants and collecting what the session sends back.
 */
import { createMemoryPair, type MemoryTransport } from '../../streams/memory.js';

export class RawPeer {
  readonly received: any[] = [];
  private waiters: { pred: (f: any) => boolean; resolve: (f: any) => void }[] = [];
  readonly transport: MemoryTransport;
  private readonly end: MemoryTransport;

  constructor() {
    const [a, b] = createMemoryPair();
    this.transport = a;
    this.end = b;
    b.inbound$.subscribe((f) => {
      this.received.push(f);
      this.waiters = this.waiters.filter((w) => {
        if (w.pred(f)) {
          w.resolve(f);
          return false;
        }
        return true;
      });
    });
  }

  /** Send a frame object, or raw text (as a byte transport would deliver it). */
  send(frame: unknown): void {
    this.end.send(frame as never);
  }

  /** The first frame (already received or future) matching `pred`. */
  next(pred: (f: any) => boolean = () => true): Promise<any> {
    const seen = this.received.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ pred, resolve }));
  }

  /** The response to request `id`. */
  response(id: string | number): Promise<any> {
    return this.next((f) => f && !Array.isArray(f) && f.id === id && !('method' in f));
  }

  close(): Promise<void> {
    return this.end.close();
  }
}

/** Let queued microtasks and one macrotask turn run (memory transports deliver on microtasks). */
export function settle(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}

export const CLIENT_INFO = { name: 'spec-client', version: '1.0.0' };
export const SERVER_INFO = { name: 'spec-server', version: '1.0.0' };

/** Drive a server session through initialize + initialized from a raw client. */
export async function initializeRaw(peer: RawPeer, protocolVersion = '2025-11-25', capabilities: object = {}): Promise<any> {
  peer.send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion, capabilities, clientInfo: CLIENT_INFO } });
  const res = await peer.response('init');
  peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await settle();
  return res;
}
