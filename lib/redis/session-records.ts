/**
 * Session records in Redis: one hash per session (what a replica needs to serve it), a set of
 * every session, the resource subscriptions both ways, and the standalone stream every message a
 * session sends outside a POST goes through (see `scripts.ts`). Times to live are the sessions'
 * idle TTL, renewed by every touch: a session expires everywhere at once.
 */
import type { SessionRecord, Touched } from '../server-bindings/http-cluster.js';
import type { RedisClient } from './redis-connection.js';
import type { RedisKeys } from './keys.js';
import { APPEND_STANDALONE, CREATE_SESSION, END_SESSION, FAN_OUT, SET_FIELD, SUBSCRIBE, TOUCH_SESSION } from './scripts.js';

const LIST_KINDS = ['tools', 'prompts', 'resources'] as const;

export type SubscribeOutcome = 'ok' | 'gone' | 'too-many';

export interface FanOut {
  mode: 'list' | 'uri' | 'log';
  /** The list kind, the URI, or the message's level. */
  arg: string;
  data: string;
  /** Log messages: the level of sessions whose client set none, and whether the access rule must have admitted them. */
  defaultLevel?: string;
  requireAccess?: boolean;
}

export class RedisSessionRecords {
  constructor(
    private readonly client: RedisClient,
    private readonly keys: RedisKeys,
    /** Events kept per standalone stream (Redis trims the oldest, approximately). */
    private readonly maxEvents: number,
  ) {}

  async create(id: string, record: SessionRecord, ttlMs: number): Promise<void> {
    await CREATE_SESSION.run(this.client, [this.keys.session(id), this.keys.sessions()], [id, ttlArg(ttlMs), ...encodeRecord(record)]);
  }

  /**
   * Renew and read. With `known` (the record as last read) only what can change since is read
   * (level, initialized, standalone opened and position): no capabilities to parse per request.
   */
  async touch(id: string, ttlMs: number, options: { stream?: boolean; standalone?: boolean; initialized?: boolean } = {}, known?: SessionRecord): Promise<Touched | undefined> {
    const reply = (await TOUCH_SESSION.run(
      this.client,
      [this.keys.session(id), this.keys.streams(id), this.keys.subscriptions(id), this.keys.events(id, '0')],
      [ttlArg(ttlMs), flag(options.stream), flag(options.standalone), flag(options.initialized), flag(known === undefined)],
    )) as [number, (string | null)[]] | null;
    if (reply === null) return undefined;
    let record: SessionRecord | undefined;
    if (known === undefined) record = decodeRecord(pairs(reply[1] as string[]));
    else {
      const [lvl, init, get, seq0] = reply[1];
      record = { ...known, logLevel: lvl ?? null, initialized: init === '1', standaloneOpened: get === '1', standaloneSeq: Number(seq0 ?? 0) };
    }
    if (record === undefined) return undefined;
    return reply[0] > 0 ? { record, streamNo: reply[0] } : { record };
  }

  /** True when the session existed. */
  async end(id: string): Promise<boolean> {
    const existed = await END_SESSION.run(
      this.client,
      [this.keys.session(id), this.keys.streams(id), this.keys.subscriptions(id), this.keys.events(id, '0'), this.keys.sessions()],
      [id, this.keys.subscribers('')],
    );
    return existed === 1;
  }

  /** The standalone stream's new seq, or -1 when the session is gone. */
  async appendStandalone(id: string, data: string): Promise<number> {
    return (await APPEND_STANDALONE.run(this.client, [this.keys.session(id)], [data, this.maxEvents])) as number;
  }

  /** Write one message to every session the fan-out concerns; how many were written. */
  async fanOut(f: FanOut): Promise<number> {
    const set = f.mode === 'uri' ? this.keys.subscribers(f.arg) : this.keys.sessions();
    return (await FAN_OUT.run(this.client, [set], [f.mode, `${this.keys.prefix}:s:{`, f.arg, f.data, this.maxEvents, f.defaultLevel ?? 'debug', f.requireAccess ? '1' : '0'])) as number;
  }

  async subscribe(id: string, uri: string, max: number): Promise<SubscribeOutcome> {
    const r = (await SUBSCRIBE.run(this.client, [this.keys.session(id), this.keys.subscriptions(id), this.keys.subscribers(uri)], [uri, id, max])) as number;
    return r === 1 ? 'ok' : r === -2 ? 'too-many' : 'gone';
  }

  async unsubscribe(id: string, uri: string): Promise<void> {
    await Promise.all([this.client.sRem(this.keys.subscriptions(id), uri), this.client.sRem(this.keys.subscribers(uri), id)]);
  }

  /** The URIs a session is subscribed to. */
  async subscriptionsOf(id: string): Promise<string[]> {
    return await this.client.sMembers(this.keys.subscriptions(id));
  }

  /** False when the session is gone. */
  async setField(id: string, field: 'lvl' | 'la', value: string): Promise<boolean> {
    return (await SET_FIELD.run(this.client, [this.keys.session(id)], [field, value])) === 1;
  }
}

function ttlArg(ttlMs: number): string {
  return Number.isFinite(ttlMs) ? String(Math.max(1, Math.ceil(ttlMs))) : '0';
}

function flag(b: boolean | undefined): string {
  return b ? '1' : '0';
}

function pairs(flat: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i]!] = flat[i + 1]!;
  return out;
}

/** The hash fields of a record; `lc` and `log` are derived from the server capabilities for the fan-out script. */
export function encodeRecord(r: SessionRecord): string[] {
  const caps = r.serverCapabilities;
  const lc = LIST_KINDS.filter((k) => (caps[k] as { listChanged?: unknown } | undefined)?.listChanged === true);
  const fields = [
    'tag', r.tag,
    'rev', r.revision,
    'ccap', JSON.stringify(r.clientCapabilities),
    'cinfo', JSON.stringify(r.clientInfo),
    'scap', JSON.stringify(caps),
    'lc', ` ${lc.join(' ')} `,
    'log', caps.logging !== undefined ? '1' : '0',
    'seq0', String(r.standaloneSeq),
    'nstream', '0',
  ];
  if (r.identity !== null) fields.push('ident', r.identity);
  if (r.logLevel !== null) fields.push('lvl', r.logLevel);
  if (r.initialized) fields.push('init', '1');
  if (r.standaloneOpened) fields.push('get', '1');
  return fields;
}

/** A record from its hash fields; undefined when they are not one (another program's key). */
export function decodeRecord(h: Record<string, string>): SessionRecord | undefined {
  if (h.tag === undefined || h.rev === undefined) return undefined;
  try {
    return {
      tag: h.tag,
      identity: h.ident ?? null,
      revision: h.rev,
      clientCapabilities: JSON.parse(h.ccap ?? '{}') as Record<string, unknown>,
      clientInfo: JSON.parse(h.cinfo ?? '{}') as SessionRecord['clientInfo'],
      serverCapabilities: JSON.parse(h.scap ?? '{}') as Record<string, unknown>,
      logLevel: h.lvl ?? null,
      initialized: h.init === '1',
      standaloneOpened: h.get === '1',
      standaloneSeq: Number(h.seq0 ?? 0),
    };
  } catch {
    return undefined;
  }
}
