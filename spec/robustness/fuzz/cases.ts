/**
 * Seeded frame fuzzing for a server: each case is what a client sends (text, or bytes that may
 * not be UTF-8) and what the protocol says must come back. The checker holds a server's answers
 * to the invariants: exactly one answer per request, with the spec's code; none for
 * notifications and responses; one batch per batch; every line of output a valid frame.
 */
import { METHODS, isMethodInRevision, methodInfo } from '../../../lib/protocol/methods.js';
import { allows, type Revision } from '../../../lib/protocol/revisions.js';
import { Prng } from './prng.js';

type Id = string | number;

/** What must come back for one case. */
export type Expect =
  /** Exactly one response with this id (null: an error with id null); an error's code must be in `codes`. */
  | { kind: 'answer'; id: Id | null; codes: readonly number[]; result: boolean }
  /** Nothing (a notification, a response, text a client never answers). */
  | { kind: 'none' }
  /** One batch response holding exactly these ids. */
  | { kind: 'batch'; ids: Id[] };

export interface FuzzCase {
  /** What kind of input this is (reported per kind). */
  family: string;
  /** The frame as text, or as bytes (invalid UTF-8). Never holds a newline. */
  data: string | Buffer;
  expect: Expect;
}

const PARSE = -32700;
const INVALID_REQUEST = -32600;
const NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const RESOURCE_NOT_FOUND = -32002;
/** What a method may answer to params of the wrong shape: never -32603 (a handler tripped over them). */
const BAD_PARAMS_CODES = [INVALID_PARAMS, NOT_FOUND, INVALID_REQUEST, RESOURCE_NOT_FOUND];

/** Plausible params per method the server serves, which the fuzzer then breaks. */
const TEMPLATES: Record<string, Record<string, unknown>> = {
  ping: {},
  'tools/list': { cursor: 'x' },
  'tools/call': { name: 'convert_units', arguments: { value: 1, from: 'celsius', to: 'kelvin' } },
  'resources/list': {},
  'resources/templates/list': {},
  'resources/read': { uri: 'notes://note/n1' },
  'resources/subscribe': { uri: 'station://status' },
  'resources/unsubscribe': { uri: 'station://status' },
  'prompts/list': {},
  'prompts/get': { name: 'field_report', arguments: { topic: 'otters' } },
  'completion/complete': { ref: { type: 'ref/prompt', name: 'field_report' }, argument: { name: 'topic', value: 'o' } },
  'logging/setLevel': { level: 'info' },
  'tasks/get': { taskId: 't' },
  'tasks/result': { taskId: 't' },
  'tasks/list': {},
  'tasks/cancel': { taskId: 't' },
  initialize: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'again', version: '1' } },
};

/** Request methods a client may send to a server. */
const CLIENT_REQUESTS = METHODS.filter((m) => {
  const info = methodInfo(m)!;
  return info.kind === 'request' && info.sender !== 'server';
});
/** Request methods only a server sends: a server answers them -32601. */
const SERVER_REQUESTS = METHODS.filter((m) => {
  const info = methodInfo(m)!;
  return info.kind === 'request' && info.sender === 'server';
});

/** A random JSON value of a random type (shallow unless `depth`). */
export function randomValue(r: Prng, depth = 2): unknown {
  switch (r.int(0, depth > 0 ? 8 : 5)) {
    case 0:
      return null;
    case 1:
      return r.bool();
    case 2:
      return r.pick([0, -1, 1.5, 1e308, -0.25, 2 ** 53 + 2, 42]);
    case 3:
      return r.string(r.int(0, 20));
    case 4:
      return r.pick(['', '\u0000', '\ud800', 'ü€𝄞', '../../etc/passwd', 'notes://note/n1', 'x'.repeat(300)]);
    case 5:
      return [];
    case 6:
      return Array.from({ length: r.int(0, 4) }, () => randomValue(r, depth - 1));
    case 7: {
      const o: Record<string, unknown> = {};
      for (let i = r.int(0, 4); i > 0; i--) o[r.pick(['name', 'uri', 'arguments', 'cursor', 'level', 'ref', 'argument', 'value', r.string(4)])] = randomValue(r, depth - 1);
      return o;
    }
    default:
      return { _meta: { progressToken: randomValue(r, 0) } };
  }
}

const nested = (depth: number, inner: string) => '['.repeat(depth) + inner + ']'.repeat(depth);

/** Params of the wrong shape for `method`: a field of another type, a field missing, junk added. */
export function brokenParams(r: Prng, method: string): Record<string, unknown> {
  const params: Record<string, unknown> = structuredClone(TEMPLATES[method] ?? {});
  const keys = Object.keys(params);
  switch (r.int(0, 3)) {
    case 0:
      if (keys.length > 0) params[r.pick(keys)] = randomValue(r);
      else params[r.string(5)] = randomValue(r);
      break;
    case 1:
      if (keys.length > 0) delete params[r.pick(keys)];
      break;
    case 2:
      params[r.pick(['arguments', 'ref', 'argument', '_meta', 'cursor'])] = randomValue(r);
      break;
    default: {
      const args = params.arguments;
      if (args !== null && typeof args === 'object') (args as Record<string, unknown>)[r.pick(['value', 'from', 'to', 'query'])] = randomValue(r);
      else params.arguments = randomValue(r);
    }
  }
  return params;
}

/** Issued ids are positive integers and `fz-<n>`: a random number or string is moved out of that space. */
function notAnIssuedId(value: unknown): unknown {
  if (typeof value === 'number') return -1 - Math.abs(value);
  if (typeof value === 'string') return `nobody-${value}`;
  return value;
}

/** Generates cases for a session on `revision`; ids are unique within a generator. */
export class CaseGenerator {
  private nextId = 1;

  constructor(
    private readonly r: Prng,
    private readonly revision: Revision,
  ) {}

  private id(): Id {
    const n = this.nextId++;
    return this.r.bool(0.5) ? n : `fz-${n}`;
  }

  private request(method: string, params: unknown, id: Id = this.id()): { frame: Record<string, unknown>; id: Id } {
    const frame: Record<string, unknown> = { jsonrpc: '2.0', id, method };
    if (params !== undefined) frame.params = params;
    return { frame, id };
  }

  /** One case of a random family. */
  next(): FuzzCase[] {
    const r = this.r;
    const family = r.pick(FAMILIES);
    return this[family]();
  }

  // ------------------------------------------------------------------ families

  /** A request with params of the wrong shape, for every method, in or out of the revision. */
  wrongParams(): FuzzCase[] {
    const r = this.r;
    const method = r.pick(CLIENT_REQUESTS);
    const { frame, id } = this.request(method, brokenParams(this.r, method));
    const inRevision = isMethodInRevision(method, this.revision);
    return [{ family: `wrong-params:${inRevision ? 'in' : 'out-of'}-revision`, data: JSON.stringify(frame), expect: { kind: 'answer', id, codes: BAD_PARAMS_CODES, result: true } }];
  }

  /**
   * `params` that is not an object, always answered under the request's id: an array (structured,
   * but MCP params are named) is -32602; a string, number, boolean or null is not structured at
   * all, which JSON-RPC 2.0 makes an Invalid Request (-32600).
   */
  nonObjectParams(): FuzzCase[] {
    const method = this.r.pick(CLIENT_REQUESTS);
    const params = this.r.pick<unknown>([[1], 'x', 3, true, null, []]);
    const { frame, id } = this.request(method, params);
    const code = Array.isArray(params) ? INVALID_PARAMS : INVALID_REQUEST;
    return [{ family: 'params-not-an-object', data: JSON.stringify(frame), expect: { kind: 'answer', id, codes: [code], result: false } }];
  }

  /** A request only a server sends, or an unknown method. */
  wrongDirection(): FuzzCase[] {
    const method = this.r.bool() ? this.r.pick(SERVER_REQUESTS) : `x/${this.r.string(6, 'abcdef')}`;
    const { frame, id } = this.request(method, {});
    return [{ family: 'unknown-or-server-method', data: JSON.stringify(frame), expect: { kind: 'answer', id, codes: [NOT_FOUND], result: false } }];
  }

  /** Text that is not JSON: garbage, or a valid frame cut short. */
  malformed(): FuzzCase[] {
    const r = this.r;
    let text: string;
    if (r.bool()) {
      const { frame } = this.request('ping', undefined);
      const full = JSON.stringify(frame);
      text = full.slice(0, r.int(1, full.length - 1));
    } else {
      // Never blank: a line of spaces is no frame at all.
      text = r.pick(['{', '[', '"', 'a', '1', '}']) + r.string(r.int(0, 80), '{}[]":,abc019.eE+-\\ tfn\u00e9');
    }
    return [this.textCase('malformed', text)];
  }

  /** Text whose meaning is decided by parsing it (a cut frame may still be JSON, "1" say). */
  private textCase(family: string, text: string): FuzzCase {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { family, data: text, expect: { kind: 'answer', id: null, codes: [PARSE], result: false } };
    }
    // JSON that is not an object (a number, a string, an array that is no valid batch here).
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return { family, data: text, expect: { kind: 'answer', id: null, codes: [INVALID_REQUEST], result: false } };
    }
    if (Array.isArray(value) && allows(this.revision, 'batches') && value.length > 0) {
      // Items that are not objects: one -32600 (id null) each, in one batch.
      return { family, data: text, expect: { kind: 'batch', ids: value.map(() => null as unknown as Id) } };
    }
    return { family, data: text, expect: { kind: 'answer', id: null, codes: [INVALID_REQUEST], result: false } };
  }

  /** Nested past the depth limit (or just within it). */
  deep(): FuzzCase[] {
    const r = this.r;
    const depth = r.pick([50, 125, 126, 127, 200, 1_000, 10_000, 50_000]);
    const id = this.id();
    // The message is 3 levels before the nested value: object, params, arguments.
    const text = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"convert_units","arguments":{"value":${nested(depth, '1')}}}}`;
    const tooDeep = depth + 3 > 128;
    return [{ family: tooDeep ? 'deep:over-limit' : 'deep:within-limit', data: text, expect: { kind: 'answer', id, codes: tooDeep ? [INVALID_REQUEST] : BAD_PARAMS_CODES, result: !tooDeep } }];
  }

  /** Bytes that are not UTF-8, inside a string (read as U+FFFD: still a request) or outside one (not JSON). */
  invalidUtf8(): FuzzCase[] {
    const r = this.r;
    const bad = Buffer.from(r.pick([[0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80]]));
    if (r.bool()) {
      const id = this.id();
      const head = Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"`);
      const tail = Buffer.from('","arguments":{}}}');
      return [{ family: 'invalid-utf8:in-string', data: Buffer.concat([head, bad, tail]), expect: { kind: 'answer', id, codes: BAD_PARAMS_CODES, result: true } }];
    }
    return [{ family: 'invalid-utf8:outside-string', data: Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,'), bad, Buffer.from('}')]), expect: { kind: 'answer', id: null, codes: [PARSE], result: false } }];
  }

  /** Envelopes JSON-RPC refuses, each with its answer. */
  envelope(): FuzzCase[] {
    const r = this.r;
    const id = this.id();
    const answer = (expectId: Id | null): Expect => ({ kind: 'answer', id: expectId, codes: [INVALID_REQUEST], result: false });
    const variants: [string, unknown, Expect][] = [
      ['no-jsonrpc', { id, method: 'ping' }, answer(id)],
      ['jsonrpc-1.0', { jsonrpc: '1.0', id, method: 'ping' }, answer(id)],
      ['id-null', { jsonrpc: '2.0', id: null, method: 'ping' }, answer(null)],
      ['id-fraction', { jsonrpc: '2.0', id: r.pick([1.5, -0.25, 3.14]), method: 'ping' }, answer(null)],
      ['id-bool', { jsonrpc: '2.0', id: true, method: 'ping' }, answer(null)],
      ['id-object', { jsonrpc: '2.0', id: { a: 1 }, method: 'ping' }, answer(null)],
      ['method-number', { jsonrpc: '2.0', id, method: 7 }, answer(id)],
      ['no-method-no-result', { jsonrpc: '2.0', id }, answer(id)],
      ['notification-with-bad-params', { jsonrpc: '2.0', method: 'notifications/progress', params: r.pick([[1], 'x', 2]) }, { kind: 'none' }],
      ['response-result-and-error', { jsonrpc: '2.0', id, result: {}, error: { code: 1, message: 'm' } }, { kind: 'none' }],
      ['response-unknown-id', { jsonrpc: '2.0', id: `never-${String(id)}`, result: {} }, { kind: 'none' }],
      ['error-response-unknown-id', { jsonrpc: '2.0', id: 999_999, error: { code: -1, message: 'x' } }, { kind: 'none' }],
      ['array-of-junk', r.pick([[1], ['x', null]]), allows(this.revision, 'batches') ? { kind: 'batch', ids: [] } : answer(null)],
    ];
    const [name, value, expect] = r.pick(variants);
    if (name === 'array-of-junk') return [this.textCase('envelope:array-of-junk', JSON.stringify(value))];
    // An unsafe integer id needs its text: JSON.stringify would print the rounded number.
    return [{ family: `envelope:${name}`, data: JSON.stringify(value), expect }];
  }

  /** An integer id beyond 2^53: refused, never answered under the rounded id. */
  hugeId(): FuzzCase[] {
    const digits = this.r.pick(['9007199254740993', '-9007199254740993', '123456789012345678901234567890']);
    return [{ family: 'envelope:id-beyond-2^53', data: `{"jsonrpc":"2.0","id":${digits},"method":"ping"}`, expect: { kind: 'answer', id: null, codes: [INVALID_REQUEST], result: false } }];
  }

  /** Notifications a server must take silently: unknown tokens and ids, unknown methods. */
  notifications(): FuzzCase[] {
    const r = this.r;
    const variants: Record<string, unknown>[] = [
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: r.string(6), progress: r.int(0, 9) } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: r.int(0, 1e6), progress: 'x' } },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: `nobody-${r.int(0, 1e6)}`, reason: r.string(5) } },
      // Any value but one this generator issued: cancelling a request in flight rightly suppresses its answer.
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: notAnIssuedId(randomValue(r, 1)) } },
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: `notifications/${r.string(6, 'abcdef')}`, params: randomValue(r) as never },
    ];
    const frame = r.pick(variants);
    if (frame.params !== undefined && (frame.params === null || typeof frame.params !== 'object' || Array.isArray(frame.params))) delete frame.params;
    return [{ family: 'notification', data: JSON.stringify(frame), expect: { kind: 'none' } }];
  }

  /** Two requests with one id, back to back: each gets one answer (the second -32600 if the first is in flight). */
  duplicateIds(): FuzzCase[] {
    const { frame, id } = this.request('tools/list', {});
    const text = JSON.stringify(frame);
    const expect: Expect = { kind: 'answer', id, codes: [INVALID_REQUEST], result: true };
    return [
      { family: 'duplicate-id', data: text, expect },
      { family: 'duplicate-id', data: text, expect },
    ];
  }

  /** A batch of requests and notifications: one batch back (2025-03-26), else one -32600. */
  batch(): FuzzCase[] {
    const r = this.r;
    const n = r.int(0, 5);
    const items: unknown[] = [];
    const ids: Id[] = [];
    for (let i = 0; i < n; i++) {
      if (r.bool(0.7)) {
        const { frame, id } = this.request(r.pick(['ping', 'tools/list', 'prompts/list', 'resources/list']), {});
        items.push(frame);
        ids.push(id);
      } else {
        items.push({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'nobody', progress: 1 } });
      }
    }
    const text = JSON.stringify(items);
    if (!allows(this.revision, 'batches') || n === 0) {
      return [{ family: `batch:${allows(this.revision, 'batches') ? 'empty' : 'not-allowed'}`, data: text, expect: { kind: 'answer', id: null, codes: [INVALID_REQUEST], result: false } }];
    }
    return [{ family: 'batch', data: text, expect: ids.length > 0 ? { kind: 'batch', ids } : { kind: 'none' } }];
  }
}

const FAMILIES = [
  'wrongParams',
  'wrongParams',
  'wrongParams',
  'nonObjectParams',
  'wrongDirection',
  'malformed',
  'malformed',
  'deep',
  'invalidUtf8',
  'envelope',
  'envelope',
  'hugeId',
  'notifications',
  'duplicateIds',
  'batch',
] as const satisfies readonly (keyof CaseGenerator)[];

/** A frame a server sent, as the checker sees it. */
interface Answer {
  id: Id | null;
  error?: { code: number; message?: unknown };
  result?: unknown;
}

/** Tallies of a run, for the report. */
export interface FuzzTally {
  cases: number;
  byFamily: Record<string, number>;
  failures: string[];
  /** Requests the server's rate limiters refused (tasks, completions): a deliberate answer. */
  rateLimited: number;
}

/**
 * The demo's rate limiters (task operations, completions; the spec says receivers SHOULD rate
 * limit task operations and defines no code) refuse with -32603 and this message. A fuzzer
 * sending thousands of requests a second meets them; such an answer is counted, not failed.
 */
const RATE_LIMITED = /^Rate limit exceeded for /;

/**
 * Checks a server's output against the cases sent: `lines` are everything the server wrote
 * (stdout lines or response bodies' messages), in order.
 */
export class AnswerChecker {
  private readonly expected = new Map<string, { count: number; codes: readonly number[]; result: boolean; family: string }>();
  private nullAnswersExpected = 0;
  private batchesExpected: { ids: Id[]; family: string }[] = [];
  private readonly got = new Map<string, number>();
  private nullAnswers = 0;
  private readonly batches: Answer[][] = [];
  readonly tally: FuzzTally = { cases: 0, byFamily: {}, failures: [], rateLimited: 0 };

  /** Ids of the server's own requests, which the fuzzing client answers. */
  readonly serverRequests: { id: Id; method: string }[] = [];

  expect(c: FuzzCase): void {
    this.tally.cases++;
    this.tally.byFamily[c.family] = (this.tally.byFamily[c.family] ?? 0) + 1;
    const e = c.expect;
    if (e.kind === 'none') return;
    if (e.kind === 'batch') {
      this.batchesExpected.push({ ids: e.ids, family: c.family });
      return;
    }
    if (e.id === null) {
      this.nullAnswersExpected++;
      return;
    }
    const key = JSON.stringify(e.id);
    const prev = this.expected.get(key);
    this.expected.set(key, { count: (prev?.count ?? 0) + 1, codes: e.codes, result: e.result, family: c.family });
  }

  /** One message (or batch) the server sent. Returns false when it is not a valid frame. */
  receive(message: unknown): boolean {
    if (Array.isArray(message)) {
      if (message.length === 0 || !message.every(isAnswer)) return this.fail(`an invalid batch frame: ${JSON.stringify(message).slice(0, 200)}`);
      this.batches.push(message as Answer[]);
      return true;
    }
    if (message === null || typeof message !== 'object' || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
      return this.fail(`not a JSON-RPC frame: ${JSON.stringify(message).slice(0, 200)}`);
    }
    const m = message as { id?: Id | null; method?: string };
    if (typeof m.method === 'string') {
      if (m.id !== undefined && m.id !== null) this.serverRequests.push({ id: m.id, method: m.method });
      return true; // the server's own notifications and requests
    }
    if (!isAnswer(message)) return this.fail(`an invalid response: ${JSON.stringify(message).slice(0, 200)}`);
    this.answer(message);
    return true;
  }

  private answer(a: Answer): void {
    if (a.id === null) {
      this.nullAnswers++;
      if (a.error === undefined) this.fail(`a result with id null: ${JSON.stringify(a).slice(0, 200)}`);
      return;
    }
    const key = JSON.stringify(a.id);
    this.got.set(key, (this.got.get(key) ?? 0) + 1);
    const e = this.expected.get(key);
    if (e === undefined) {
      this.fail(`an answer to id ${key}, which no request had`);
      return;
    }
    if (a.error !== undefined && a.error.code === -32603 && RATE_LIMITED.test(String(a.error.message))) {
      this.tally.rateLimited++;
      return;
    }
    if (a.error !== undefined && !e.codes.includes(a.error.code)) this.fail(`${e.family}: id ${key} got code ${a.error.code} (${String(a.error.message).slice(0, 200)}), expected one of ${e.codes.join(', ')}`);
    if (a.result !== undefined && !e.result) this.fail(`${e.family}: id ${key} got a result, expected an error`);
  }

  /** Whether every expected answer is in. */
  get complete(): boolean {
    if (this.nullAnswers < this.nullAnswersExpected || this.batches.length < this.batchesExpected.length) return false;
    for (const [key, e] of this.expected) if ((this.got.get(key) ?? 0) < e.count) return false;
    return true;
  }

  /** Final check once the output is complete (or timed out); returns the failures. */
  finish(): string[] {
    for (const [key, e] of this.expected) {
      const got = this.got.get(key) ?? 0;
      if (got !== e.count) this.fail(`${e.family}: id ${key} answered ${got} times, expected ${e.count}`);
    }
    if (this.nullAnswers !== this.nullAnswersExpected) this.fail(`${this.nullAnswers} answers with id null, expected ${this.nullAnswersExpected}`);
    if (this.batches.length !== this.batchesExpected.length) this.fail(`${this.batches.length} batch answers, expected ${this.batchesExpected.length}`);
    // Batches are answered in order of arrival only when their handlers finish in order; match by ids.
    const remaining = [...this.batches];
    for (const b of this.batchesExpected) {
      const want = b.ids.filter((id) => id !== null).map((id) => JSON.stringify(id)).sort().join(',');
      const i = remaining.findIndex((got) => got.filter((a) => a.id !== null).map((a) => JSON.stringify(a.id)).sort().join(',') === want && got.length === b.ids.length);
      if (i < 0) this.fail(`${b.family}: no batch answer with ids [${want}] (${b.ids.length} items)`);
      else remaining.splice(i, 1);
    }
    return this.tally.failures;
  }

  private fail(message: string): false {
    if (this.tally.failures.length < 50) this.tally.failures.push(message);
    return false;
  }
}

function isAnswer(v: unknown): v is Answer {
  if (v === null || typeof v !== 'object') return false;
  const a = v as { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };
  if (a.jsonrpc !== '2.0' || !('id' in a)) return false;
  if ((a.result === undefined) === (a.error === undefined)) return false;
  if (a.error !== undefined && (!Number.isInteger(a.error.code) || typeof a.error.message !== 'string')) return false;
  return typeof a.id === 'string' || typeof a.id === 'number' || a.id === null;
}
