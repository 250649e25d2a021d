/**
 * Seeded cases for the 2026-07-28 (modern) era: stateless requests that carry their envelope in
 * `params._meta`, over HTTP with the headers that mirror the body (`MCP-Protocol-Version`,
 * `Mcp-Method`, `Mcp-Name`) or as lines over stdio. Each case breaks one thing (params, the
 * envelope, a header, the version, the MRTR fields, the nesting depth) or is well formed; the
 * expectation is the spec's code under the request's own id, one answer per request, none for a
 * notification. The checker is the legacy fuzzers' {@link AnswerChecker}.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic#meta
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
 */
import { META } from '../../../lib/protocol/schema/modern.js';
import { brokenParams, randomValue, type Expect, type FuzzCase } from './cases.js';
import { Prng } from './prng.js';

type Id = string | number;

/** A modern case: the body, and the headers it goes with over HTTP (stdio ignores them). */
export interface ModernCase extends FuzzCase {
  headers: Record<string, string>;
}

const REVISION = '2026-07-28';
const INVALID_REQUEST = -32600;
const NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const HEADER_MISMATCH = -32020;
const MISSING_CAPABILITY = -32021;
const UNSUPPORTED_VERSION = -32022;
/** Wrong params: never -32603 (a handler tripped over them), never -32002 (gone in this era). */
const BAD_PARAMS = [INVALID_PARAMS, NOT_FOUND, INVALID_REQUEST, HEADER_MISMATCH];

/** Well-formed params per method the demo serves in this era (no cursor: a bad one is -32602). */
const VALID: Record<string, Record<string, unknown>> = {
  'server/discover': {},
  'tools/list': {},
  'tools/call': { name: 'convert_units', arguments: { value: 1, from: 'celsius', to: 'kelvin' } },
  'resources/list': {},
  'resources/templates/list': {},
  'resources/read': { uri: 'notes://note/n1' },
  'prompts/list': {},
  'prompts/get': { name: 'review_note', arguments: { id: 'n1' } },
  'completion/complete': { ref: { type: 'ref/prompt', name: 'review_note' }, argument: { name: 'id', value: 'n' } },
};
/** Where `Mcp-Name` comes from. */
const NAME_SOURCE: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };
/** Methods of the session era that 2026-07-28 removed: -32601. */
const REMOVED = ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe'];

function envelope(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { [META.protocolVersion]: REVISION, [META.clientCapabilities]: {}, [META.clientInfo]: { name: 'fuzzer', version: '1' }, ...extra };
}

/** The headers a careful client sends for `frame` (ASCII values only; the generator uses ASCII names). */
export function headersFor(frame: { method?: unknown; params?: unknown }): Record<string, string> {
  const headers: Record<string, string> = { 'mcp-protocol-version': REVISION };
  if (typeof frame.method === 'string') headers['mcp-method'] = frame.method;
  const source = typeof frame.method === 'string' ? NAME_SOURCE[frame.method] : undefined;
  const params = frame.params as Record<string, unknown> | undefined;
  const name = source !== undefined && params !== null && typeof params === 'object' ? params[source] : undefined;
  if (typeof name === 'string' && /^[\x20-\x7e]*$/.test(name)) headers['mcp-name'] = name;
  return headers;
}

const FAMILIES = [
  'valid',
  'valid',
  'wrongParams',
  'wrongParams',
  'envelope',
  'envelope',
  'headers',
  'headers',
  'version',
  'removedOrUnknown',
  'mrtr',
  'deep',
  'notification',
  'tasksWithoutOptIn',
] as const;

export class ModernCaseGenerator {
  private nextId = 1;

  constructor(private readonly r: Prng) {}

  private id(): Id {
    const n = this.nextId++;
    return this.r.bool(0.5) ? n : `mz-${n}`;
  }

  private case(family: string, frame: Record<string, unknown>, expect: Expect, headers = headersFor(frame)): ModernCase[] {
    return [{ family, data: JSON.stringify(frame), expect, headers }];
  }

  next(): ModernCase[] {
    return this[this.r.pick(FAMILIES)]();
  }

  /** A well-formed request: a result, never an error. */
  valid(): ModernCase[] {
    const method = this.r.pick(Object.keys(VALID));
    const id = this.id();
    return this.case(`valid:${method}`, { jsonrpc: '2.0', id, method, params: { ...structuredClone(VALID[method]), _meta: envelope() } }, { kind: 'answer', id, codes: [], result: true });
  }

  /** A well-formed envelope around params of the wrong shape. */
  wrongParams(): ModernCase[] {
    const method = this.r.pick(Object.keys(VALID).filter((m) => m !== 'server/discover'));
    const id = this.id();
    const params = brokenParams(this.r, method);
    const broken = { ...params, ...(method in VALID && { ...Object.fromEntries(Object.entries(VALID[method]).filter(([k]) => !(k in params) && this.r.bool(0.2))) }) };
    broken._meta = envelope();
    return this.case('wrong-params', { jsonrpc: '2.0', id, method, params: broken }, { kind: 'answer', id, codes: BAD_PARAMS, result: true });
  }

  /** A version claim with the rest of the envelope broken: -32602 (or -32020 when the claim no longer matches the header). */
  envelope(): ModernCase[] {
    const r = this.r;
    const id = this.id();
    const meta = envelope();
    switch (r.int(0, 4)) {
      case 0:
        delete meta[META.clientCapabilities];
        break;
      case 1:
        meta[META.clientCapabilities] = r.pick([[], 'all', 1, null, true]);
        break;
      case 2:
        meta[META.clientInfo] = r.pick([{ name: 1, version: '1' }, 'fuzzer', [], { name: 'x' }]);
        break;
      case 3:
        meta[META.logLevel] = r.pick(['loud', 7, '', null, 'INFO']);
        break;
      default:
        meta[META.protocolVersion] = r.pick([7, '', true, ['2026-07-28'], { v: 1 }]);
    }
    return this.case('envelope', { jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: meta } }, { kind: 'answer', id, codes: [INVALID_PARAMS, HEADER_MISMATCH], result: false });
  }

  /** Headers that disagree with the body (or are missing): -32020 (HTTP only). */
  headers(): ModernCase[] {
    const r = this.r;
    const id = this.id();
    const method = r.pick(['tools/call', 'prompts/get', 'resources/read', 'tools/list']);
    const frame = { jsonrpc: '2.0', id, method, params: { ...structuredClone(VALID[method]), _meta: envelope() } };
    const headers = headersFor(frame);
    switch (r.int(0, 4)) {
      case 0:
        delete headers['mcp-protocol-version'];
        break;
      case 1:
        headers['mcp-protocol-version'] = r.pick(['2025-11-25', '2026-07-29', 'x']);
        break;
      case 2:
        delete headers['mcp-method'];
        break;
      case 3:
        headers['mcp-method'] = r.pick(['tools/list', 'ping', 'TOOLS/CALL']) === method ? 'ping' : r.pick(['ping', 'TOOLS/CALL']);
        break;
      default:
        if (method === 'tools/list') headers['mcp-method'] = 'tools/call';
        else headers['mcp-name'] = `${headers['mcp-name'] ?? ''}-not-it`;
    }
    return this.case('header-mismatch', frame, { kind: 'answer', id, codes: [HEADER_MISMATCH], result: false }, headers);
  }

  /** A version claim we do not speak (header agreeing): -32022 with what we support. */
  version(): ModernCase[] {
    const id = this.id();
    const version = this.r.pick(['2099-01-01', '2026-07-27', 'DRAFT-2027-v1', '2025-11-25']);
    const frame = { jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: envelope({ [META.protocolVersion]: version }) } };
    return this.case('unsupported-version', frame, { kind: 'answer', id, codes: [UNSUPPORTED_VERSION, HEADER_MISMATCH], result: false }, { ...headersFor(frame), 'mcp-protocol-version': version });
  }

  /** A session-era method this era removed, an unknown one, or one only a server sends: -32601. */
  removedOrUnknown(): ModernCase[] {
    const id = this.id();
    const method = this.r.pick([...REMOVED, `x/${this.r.string(6, 'abcdef')}`, 'sampling/createMessage', 'elicitation/create', 'roots/list']);
    const params: Record<string, unknown> = method === 'initialize' ? { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'f', version: '1' } } : {};
    params._meta = envelope();
    return this.case('removed-or-unknown', { jsonrpc: '2.0', id, method, params }, { kind: 'answer', id, codes: [NOT_FOUND], result: false });
  }

  /** MRTR fields of the wrong shape, or a forged `requestState`: -32602, never a retried handler that crashes. */
  mrtr(): ModernCase[] {
    const r = this.r;
    const id = this.id();
    const params: Record<string, unknown> = { ...structuredClone(VALID['tools/call']), _meta: envelope() };
    if (r.bool()) params.inputResponses = r.pick([5, 'x', [], { e1: 7 }, { e1: { action: 'accept' } }, null]);
    if (r.bool(0.7)) params.requestState = r.pick([7, '', 'v1.e30.AAAA', 'v1.' + 'A'.repeat(200) + '.x', { s: 1 }, randomValue(r, 1)]);
    if (params.inputResponses === undefined && params.requestState === undefined) params.requestState = 'v1.bm9wZQ.bm9wZQ';
    return this.case('mrtr-fields', { jsonrpc: '2.0', id, method: 'tools/call', params }, { kind: 'answer', id, codes: [INVALID_PARAMS], result: true });
  }

  /** Deeply nested params: over the limit -32600 under its id; within it, a params error or a result. */
  deep(): ModernCase[] {
    const id = this.id();
    const depth = this.r.pick([10, 100, 1_000, 20_000]);
    const body = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"convert_units","arguments":{"value":${'['.repeat(depth)}1${']'.repeat(depth)}},"_meta":${JSON.stringify(envelope())}}}`;
    const tooDeep = depth + 4 > 128;
    return [
      {
        family: tooDeep ? 'deep:over-limit' : 'deep:within-limit',
        data: body,
        headers: { 'mcp-protocol-version': REVISION, 'mcp-method': 'tools/call', 'mcp-name': 'convert_units' },
        expect: { kind: 'answer', id, codes: tooDeep ? [INVALID_REQUEST] : BAD_PARAMS, result: !tooDeep },
      },
    ];
  }

  /** Notifications, with and without an envelope: never answered. */
  notification(): ModernCase[] {
    const r = this.r;
    const frame: Record<string, unknown> = {
      jsonrpc: '2.0',
      method: r.pick(['notifications/cancelled', 'notifications/progress', `notifications/${r.string(5, 'abc')}`]),
      params: r.pick([{ requestId: `nobody-${r.int(0, 1e6)}` }, { progressToken: 'nobody', progress: 1 }, {}]),
    };
    if (r.bool()) (frame.params as Record<string, unknown>)._meta = envelope();
    return this.case('notification', frame, { kind: 'none' });
  }

  /** Task methods from a client that did not opt in to the tasks extension: -32021 (or -32601/-32602). */
  tasksWithoutOptIn(): ModernCase[] {
    const id = this.id();
    const method = this.r.pick(['tasks/get', 'tasks/update', 'tasks/cancel']);
    const frame = { jsonrpc: '2.0', id, method, params: { taskId: `t-${this.r.string(6, 'abc')}`, _meta: envelope() } };
    return this.case('tasks-without-opt-in', frame, { kind: 'answer', id, codes: [MISSING_CAPABILITY, NOT_FOUND, INVALID_PARAMS, HEADER_MISMATCH], result: false }, {
      ...headersFor(frame),
      'mcp-name': frame.params.taskId,
    });
  }
}

/** `count` or a few more cases from `seed`. */
export function modernCases(seed: number, count: number): ModernCase[] {
  const gen = new ModernCaseGenerator(new Prng(seed));
  const out: ModernCase[] = [];
  while (out.length < count) out.push(...gen.next());
  return out;
}

