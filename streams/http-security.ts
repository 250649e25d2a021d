/**
 * DNS rebinding protection for the HTTP transports: which `Host` and `Origin` values a request may
 * carry.
 *
 * A web page on `evil.example` that rebinds its name to 127.0.0.1 can make the browser send
 * requests to a local MCP server; those carry `Host: evil.example` (and, from scripts,
 * `Origin: http://evil.example`). So:
 *
 * - `Host`: checked against `allowedHosts` when given; otherwise, on a connection that arrived on a
 *   loopback address, only `localhost`, `127.0.0.1` and `[::1]` (any port) pass. A server bound to
 *   a public address without `allowedHosts` does not check `Host`.
 * - `Origin`, when present, is checked on every request: against `allowedOrigins` when given
 *   (`'*'` allows any); otherwise a loopback connection accepts loopback origins (any scheme and
 *   port) and any other connection accepts only its own origin (the `Origin` host equals `Host`).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/security_best_practices
 */
import type { HttpRequestIn } from './http-shape.js';

export interface HostOriginPolicy {
  /** Host names (any port) or `host:port` pairs accepted in `Host`. */
  allowedHosts?: readonly string[];
  /** Origins (`scheme://host[:port]`) accepted in `Origin`; `'*'` accepts any. */
  allowedOrigins?: readonly string[];
}

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for 127.0.0.0/8, ::1 and IPv4-mapped 127.x addresses. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/** `host[:port]` → lower-cased host name (IPv6 keeps its brackets) and the port text, if any. */
export function splitHost(host: string): { hostname: string; port: string | undefined } {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    if (end < 0) return { hostname: h, port: undefined };
    const rest = h.slice(end + 1);
    return { hostname: h.slice(0, end + 1), port: rest.startsWith(':') ? rest.slice(1) : undefined };
  }
  const colon = h.indexOf(':');
  if (colon < 0 || h.indexOf(':', colon + 1) >= 0) return { hostname: h, port: undefined };
  return { hostname: h.slice(0, colon), port: h.slice(colon + 1) };
}

/** A compiled policy: the lists lower-cased once. */
export class HostOriginGuard {
  private readonly hostNames: Set<string> | undefined;
  private readonly hostPorts: Set<string> | undefined;
  private readonly origins: Set<string> | undefined;
  private readonly anyOrigin: boolean;

  constructor(policy: HostOriginPolicy = {}) {
    if (policy.allowedHosts !== undefined) {
      this.hostNames = new Set();
      this.hostPorts = new Set();
      for (const entry of policy.allowedHosts) {
        const { hostname, port } = splitHost(entry);
        if (port === undefined) this.hostNames.add(hostname);
        else this.hostPorts.add(`${hostname}:${port}`);
      }
    }
    this.anyOrigin = policy.allowedOrigins?.includes('*') ?? false;
    if (policy.allowedOrigins !== undefined) {
      this.origins = new Set(policy.allowedOrigins.map((o) => normalizeOrigin(o) ?? o.toLowerCase()));
    }
  }

  /** Why the request must be refused (403), or undefined when it may go on. */
  check(req: Pick<HttpRequestIn, 'headers' | 'socket'>): string | undefined {
    const loopback = isLoopbackAddress(req.socket?.localAddress);
    const host = req.headers.host;
    if (this.hostNames !== undefined || loopback) {
      if (host === undefined || host === '') return 'Forbidden: the Host header is missing';
      if (!this.hostAllowed(host, loopback)) return `Forbidden: Host "${clip(host)}" is not allowed (DNS rebinding protection)`;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !this.originAllowed(origin, loopback, host)) {
      return `Forbidden: Origin "${clip(origin)}" is not allowed (DNS rebinding protection)`;
    }
    return undefined;
  }

  /** Whether `origin` passed the check (for CORS: only those are echoed back). */
  originAllowed(origin: string, loopback: boolean, host: string | undefined): boolean {
    if (this.anyOrigin) return true;
    const normalized = normalizeOrigin(origin);
    if (this.origins !== undefined) return this.origins.has(normalized ?? origin.toLowerCase());
    if (normalized === undefined) return false;
    const { hostname, port } = splitHost(normalized.slice(normalized.indexOf('//') + 2));
    if (loopback) return LOOPBACK_HOSTNAMES.has(hostname);
    if (host === undefined) return false;
    const h = splitHost(host);
    const defaultPort = normalized.startsWith('https:') ? '443' : '80';
    return h.hostname === hostname && (h.port ?? defaultPort) === (port ?? defaultPort);
  }

  private hostAllowed(host: string, loopback: boolean): boolean {
    const { hostname, port } = splitHost(host);
    if (this.hostNames !== undefined) {
      return this.hostNames.has(hostname) || (port !== undefined && this.hostPorts!.has(`${hostname}:${port}`));
    }
    return loopback && LOOPBACK_HOSTNAMES.has(hostname);
  }
}

/** `scheme://host[:port]` in lower case, or undefined when `origin` is not a URL origin (`null`). */
export function normalizeOrigin(origin: string): string | undefined {
  if (origin === 'null') return undefined;
  try {
    const u = new URL(origin);
    // An origin is scheme://host[:port] (RFC 6454): `http://evil.example@127.0.0.1` has userinfo
    // and is no origin at all, whatever host it ends with.
    if (u.username !== '' || u.password !== '' || u.search !== '' || u.hash !== '' || u.pathname !== '/' || origin.includes('@')) return undefined;
    // `host` leaves out the scheme's default port, so `http://a:80` and `http://a` compare equal.
    return `${u.protocol}//${u.host}`.toLowerCase();
  } catch {
    return undefined;
  }
}

const clip = (s: string): string => (s.length > 100 ? `${s.slice(0, 100)}…` : s);

/** Whether `v` holds a control character HTTP forbids in a field value: C0 except horizontal tab, and DEL (RFC 9110 §5.5). */
function hasControlCharacter(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09) || c === 0x7f) return true;
  }
  return false;
}

/**
 * The name of the first request header whose value holds a control character, or undefined. Node's
 * parser refuses such a request before any handler runs (see lib/http/client-error.ts); the Fetch
 * `Headers` of Workers, Deno and Bun let most of them through, so the handler checks too.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-5.5
 */
export function headerWithControlCharacter(headers: HttpRequestIn['headers']): string | undefined {
  // for-in, not Object.entries: no array of pairs per request (this runs on every request).
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    if (typeof value === 'string' ? hasControlCharacter(value) : value.some(hasControlCharacter)) return name;
  }
  return undefined;
}
