/**
 * The client behind a reverse proxy: its address (and port, when the proxy says it) from the
 * `Forwarded` (RFC 7239) or `X-Forwarded-For` header, believed only when the socket's peer is a
 * proxy the operator named (`trustProxies`: addresses or CIDR ranges). A header is anyone's to
 * write, so with no proxy named, or a request from an address not named, the socket's peer is the
 * client, whatever headers say.
 * OpenTelemetry's `client.address` / `client.port` name the client behind any intermediaries.
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/#server
 * @see https://www.rfc-editor.org/rfc/rfc7239
 */
import type { HttpRequestIn } from '../../streams/http-shape.js';
import { inRange, parseAddress, parseRange, type IpRange } from './ip-range.js';

/**
 * A `trustProxies` entry that is neither an IP address nor a CIDR range, thrown when the handler
 * is made (a typo would otherwise trust nobody, or the wrong hosts).
 */
export class InvalidTrustProxiesError extends Error {
  override readonly name = 'InvalidTrustProxiesError';
  constructor(
    /** The entry as given. */
    readonly entry: unknown,
    /** Why it was refused. */
    readonly reason: string,
  ) {
    super(`trustProxies: ${JSON.stringify(entry)} ${reason}`);
  }
}

/** A client's address and port, as far as they are known. */
export interface RemotePeer {
  readonly address?: string | undefined;
  readonly port?: number | undefined;
}

/** How a request's client is found: from its socket, or from a trusted proxy's forwarding header. */
export type RemoteOf = (req: HttpRequestIn) => RemotePeer;

/** The socket's peer: the client, or the last proxy in front of us. */
export function socketPeer(req: HttpRequestIn): RemotePeer {
  return { address: req.socket?.remoteAddress, port: req.socket?.remotePort };
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/;

/** `::ffff:10.0.0.1` (an IPv4 client on a dual-stack socket) is `10.0.0.1`; IPv6 in lower case. */
function normalize(address: string): string {
  const a = address.toLowerCase();
  return a.startsWith('::ffff:') && IPV4.test(a.slice(7)) ? a.slice(7) : a;
}

function isIp(address: string): boolean {
  return parseAddress(address) !== undefined;
}

/**
 * One hop of a forwarding header: `192.0.2.60`, `192.0.2.60:4711`, `[2001:db8::1]:4711`, or
 * `2001:db8::1` (X-Forwarded-For writes IPv6 bare). Not an IP (`unknown`, an obfuscated `_hidden`): undefined.
 */
function parseNode(raw: string): RemotePeer | undefined {
  let v = raw.trim();
  if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) v = v.slice(1, -1);
  let address = v;
  let port: number | undefined;
  const bracket = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(v);
  if (bracket) {
    address = bracket[1]!;
    port = bracket[2] === undefined ? undefined : Number(bracket[2]);
  } else {
    const v4 = /^([\d.]+):(\d{1,5})$/.exec(v);
    if (v4) {
      address = v4[1]!;
      port = Number(v4[2]);
    }
  }
  if (!isIp(address)) return undefined;
  if (port !== undefined && !(port > 0 && port <= 65535)) port = undefined;
  return { address: normalize(address), port };
}

/** The `for=` nodes of a `Forwarded` header, nearest the client first; undefined for a hop that names none we can read. */
function forwardedFor(header: string): (RemotePeer | undefined)[] {
  const hops: (RemotePeer | undefined)[] = [];
  for (const element of header.split(',')) {
    let node: RemotePeer | undefined;
    for (const pair of element.split(';')) {
      const eq = pair.indexOf('=');
      if (eq > 0 && pair.slice(0, eq).trim().toLowerCase() === 'for') node = parseNode(pair.slice(eq + 1));
    }
    hops.push(node);
  }
  return hops;
}

function headerOf(req: HttpRequestIn, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

/**
 * How to find a request's client given the proxies the operator trusts: exact IP addresses or CIDR
 * ranges (`10.0.0.0/8`, `fd00::/8`; an IPv4 range also matches the IPv4-mapped form `::ffff:10.1.2.3`).
 * Walking the hops from the nearest: each trusted one hands over to the hop it names, and the first
 * address not trusted is the client. A hop that names no address stops the walk at the proxy that
 * wrote it. `Forwarded` is read before `X-Forwarded-For`; the latter carries no client port.
 * Throws {@link InvalidTrustProxiesError} on an entry that is neither, saying why.
 */
export function remoteResolver(trustProxies: readonly string[] | undefined): RemoteOf {
  if (trustProxies === undefined || trustProxies.length === 0) return socketPeer;
  const trusted: IpRange[] = [];
  for (const entry of trustProxies) {
    if (typeof entry !== 'string') throw new InvalidTrustProxiesError(entry, 'is not a string (name each proxy by its address or CIDR range)');
    const range = parseRange(entry.trim());
    if ('reason' in range) throw new InvalidTrustProxiesError(entry, range.reason);
    trusted.push(range);
  }
  const isTrusted = (address: string) => {
    const bytes = parseAddress(address);
    return bytes !== undefined && trusted.some((range) => inRange(bytes, range));
  };
  return (req) => {
    const socket = socketPeer(req);
    if (socket.address === undefined || !isTrusted(socket.address)) return socket;
    const forwarded = headerOf(req, 'forwarded');
    const xff = headerOf(req, 'x-forwarded-for');
    const hops = forwarded !== undefined ? forwardedFor(forwarded) : xff !== undefined ? xff.split(',').map(parseNode) : [];
    let client: RemotePeer = socket;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i];
      if (hop === undefined) break;
      client = hop;
      if (!isTrusted(hop.address!)) break;
    }
    return client;
  };
}
