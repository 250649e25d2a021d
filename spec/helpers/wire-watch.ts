/**
 * Waiting for what a client's transport carries, instead of a fixed pause: "the server answered
 * resources/subscribe", "the listen stream was acknowledged", "the list change came". A pause long
 * enough on an idle machine is too short on a loaded one (CI runs two mocha workers on 2 cores), and
 * a session whose next step races the previous one records or replays a different order.
 */
import type { Transport } from '../../streams/transport.js';

type Frame = Record<string, any>;

/** The JSON-RPC objects in one raw frame (text or object, single or batch). */
function framesOf(raw: unknown): Frame[] {
  let value = raw;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return [];
    }
  }
  if (Array.isArray(value)) return value.filter((f): f is Frame => typeof f === 'object' && f !== null);
  return typeof value === 'object' && value !== null ? [value as Frame] : [];
}

export interface WireWatch {
  /** Every frame the peer sent since the watch started. */
  readonly inbound: Frame[];
  /** Resolves with the first inbound frame (already seen or still to come) that matches; rejects after `ms`. */
  inboundFrame(match: (f: Frame) => boolean, what: string, ms?: number): Promise<Frame>;
  /** Resolves with the peer's answer to the first `method` request the client sent since the watch started. */
  answerTo(method: string, ms?: number): Promise<Frame>;
  /** Resolves once the peer sent a notification `method`. */
  notification(method: string, ms?: number): Promise<Frame>;
}

/**
 * Watch a connected client's transport. Call it after `connect()`: a transport buffers frames for
 * its first subscriber, which must be the session. It wraps `send` to learn the ids of requests.
 */
export function watchWire(transport: Transport): WireWatch {
  const inbound: Frame[] = [];
  const sentIds = new Map<unknown, string>();
  let waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  const send = transport.send.bind(transport);
  (transport as { send: Transport['send'] }).send = (frame, options) => {
    for (const f of framesOf(frame)) if (typeof f.method === 'string' && f.id !== undefined) sentIds.set(f.id, f.method);
    return send(frame, options);
  };
  transport.inbound$.subscribe((raw) => {
    for (const f of framesOf(raw)) {
      inbound.push(f);
      waiters = waiters.filter((w) => !(w.match(f) && (w.resolve(f), true)));
    }
  });
  const inboundFrame = (match: (f: Frame) => boolean, what: string, ms = 30_000): Promise<Frame> => {
    const seen = inbound.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms; got ${JSON.stringify(inbound.map((f) => f.method ?? `#${f.id}`))}`)), ms);
      waiters.push({
        match,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  };
  return {
    inbound,
    inboundFrame,
    answerTo: (method, ms) => inboundFrame((f) => f.method === undefined && sentIds.get(f.id) === method, `answer to ${method}`, ms),
    notification: (method, ms) => inboundFrame((f) => f.method === method && f.id === undefined, method, ms),
  };
}
