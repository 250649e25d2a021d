/**
 * The formats of the OpenTelemetry keys reserved in a request's `_meta` (2026-07-28): `traceparent`
 * and `tracestate` as W3C Trace Context writes them, `baggage` as W3C Baggage does. A value that
 * does not follow them must not be sent (the client refuses it) and is not passed on as trace
 * context (the server leaves it out of `ctx.trace`, as OpenTelemetry's propagators ignore it).
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/index#meta
 * @see https://www.w3.org/TR/trace-context/
 * @see https://www.w3.org/TR/baggage/
 */

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-[^\s]*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_PARENT = '0'.repeat(16);
// tracestate: a simple key, or tenant@system; values are printable ASCII without ',' and '=', not ending in a space.
const STATE_KEY = /^(?:[a-z][_0-9a-z\-*/]{0,255}|[a-z0-9][_0-9a-z\-*/]{0,240}@[a-z][_0-9a-z\-*/]{0,13})$/;
const STATE_VALUE = /^[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;
// baggage: token keys (RFC 7230), values of baggage octets (percent-encoding for the rest), `;` properties.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAGGAGE_VALUE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;

/** Whether `value` is a W3C `traceparent`: version-traceid-parentid-flags, lower-case hex, no all-zero ids. */
export function isTraceparent(value: string): boolean {
  const m = TRACEPARENT.exec(value);
  if (!m) return false;
  const [, version, traceId, parentId, , rest] = m;
  if (version === 'ff' || traceId === ZERO_TRACE || parentId === ZERO_PARENT) return false;
  // Version 00 has exactly four fields; later versions may add more after a dash.
  return version !== '00' || rest === undefined;
}

/** Whether `value` is a W3C `tracestate`: up to 32 comma-separated `key=value` members, each key once. */
export function isTracestate(value: string): boolean {
  const members = value.split(',').map((m) => m.trim()).filter((m) => m !== '');
  if (members.length > 32) return false;
  const keys = new Set<string>();
  for (const member of members) {
    const eq = member.indexOf('=');
    if (eq <= 0) return false;
    const key = member.slice(0, eq);
    if (!STATE_KEY.test(key) || !STATE_VALUE.test(member.slice(eq + 1)) || keys.has(key)) return false;
    keys.add(key);
  }
  return true;
}

/** Whether `value` is a W3C `baggage` header: comma-separated `key=value` members with optional `;` properties, 8,192 bytes at most. */
export function isBaggage(value: string): boolean {
  if (value.length > 8192) return false; // valid baggage is ASCII: characters are bytes
  for (const raw of value.split(',')) {
    const [pair, ...properties] = raw.split(';');
    const eq = pair!.indexOf('=');
    if (eq < 0 || !TOKEN.test(pair!.slice(0, eq).trim()) || !BAGGAGE_VALUE.test(pair!.slice(eq + 1).trim())) return false;
    for (const p of properties) {
      const peq = p.indexOf('=');
      const key = (peq < 0 ? p : p.slice(0, peq)).trim();
      if (!TOKEN.test(key) || (peq >= 0 && !BAGGAGE_VALUE.test(p.slice(peq + 1).trim()))) return false;
    }
  }
  return true;
}

const CHECKS = { traceparent: isTraceparent, tracestate: isTracestate, baggage: isBaggage } as const;
const EXAMPLES = {
  traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
  tracestate: 'vendor=opaque-value,other@system=x',
  baggage: 'userId=alice,serverNode=DF%2028;ttl=60',
} as const;

/** Which of the trace keys present has a value its format refuses (undefined when all are well-formed). */
export function malformedTraceKey(trace: { traceparent?: unknown; tracestate?: unknown; baggage?: unknown }): 'traceparent' | 'tracestate' | 'baggage' | undefined {
  for (const key of ['traceparent', 'tracestate', 'baggage'] as const) {
    const v = trace[key];
    if (v !== undefined && (typeof v !== 'string' || !CHECKS[key](v))) return key;
  }
  return undefined;
}

/** What to tell a caller whose trace context would break the format (with a well-formed example). */
export function malformedTraceMessage(key: 'traceparent' | 'tracestate' | 'baggage', value: unknown): string {
  const spec = key === 'baggage' ? 'W3C Baggage' : 'W3C Trace Context';
  return `trace.${key} ${JSON.stringify(value)} does not follow ${spec}, which _meta requires of it; pass a well-formed value (e.g. ${JSON.stringify(EXAMPLES[key])}) or leave it out`;
}
