/**
 * Normalization before two sessions' frames are compared or matched: JSON-RPC ids, progress
 * tokens, timestamps (values, time-named keys, and dates and clock times inside text), session
 * ids, request ids inside results, listen subscription ids and the `requestState` of multi
 * round-trip requests (opaque, signed, expiring: never the same twice) are replaced by placeholders,
 * and the JSON paths the user names (`--ignore`) are dropped. Paths are dotted with `[n]` or `[*]`
 * for array items and `*` for any key: `result.content[*].text`, `params._meta`, `*.timestamp`.
 */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
/** Times and dates inside text ("created at 3:00:30 AM", "at 2026-11-25T03:00:30Z", "on 2026-11-25"). */
const TIME_IN_TEXT = /\b\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?\b|\b\d{1,2}:\d{2}:\d{2}(\.\d+)?(\s?[AP]M)?/g;
const TIME_KEYS = /^(timestamp|time|date|createdAt|updatedAt|lastUpdatedAt|startedAt|endedAt|expiresAt|modifiedAt|lastModified)$/;
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const SESSION_KEYS = /^(sessionId|session_id|mcpSessionId|taskId|elicitationId)$/;

export interface NormalizeOptions {
  /** Paths to drop (see the module comment). */
  ignore?: readonly string[];
}

type Path = (string | number)[];

function matches(pattern: string[], path: Path): boolean {
  if (pattern[0] === '**') return pattern.length === 1 || path.some((_p, i) => matches(pattern.slice(1), path.slice(i)));
  if (pattern.length !== path.length) return false;
  return pattern.every((p, i) => p === '*' || p === String(path[i]));
}

/** `result.content[*].text` → ['result', 'content', '*', 'text']; a leading `*.` matches at any depth. */
export function parsePath(path: string): string[] {
  const parts = path
    .replace(/^\$\.?/, '')
    .replace(/\[(\*|\d+)\]/g, '.$1')
    .split('.')
    .filter((p) => p !== '');
  return parts[0] === '*' && parts.length > 1 ? ['**', ...parts.slice(1)] : parts;
}

export class Normalizer {
  private readonly ignore: string[][];
  constructor(options: NormalizeOptions = {}) {
    this.ignore = (options.ignore ?? []).map(parsePath);
  }

  /** A normalized copy of a frame (or any value). */
  frame(value: unknown): unknown {
    return this.walk(value, []);
  }

  private walk(value: unknown, path: Path): unknown {
    if (Array.isArray(value)) return value.map((v, i) => this.walk(v, [...path, i]));
    if (value === null || typeof value !== 'object') {
      if (typeof value !== 'string') return value;
      if (ISO_TIME.test(value)) return '<time>';
      return value.replace(TIME_IN_TEXT, '<time>');
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      const at = [...path, key];
      if (this.ignore.some((p) => matches(p, at))) continue;
      if (path.length === 0 && key === 'id') out[key] = '<id>';
      else if (key === 'progressToken') out[key] = '<progressToken>';
      else if (key === 'requestId' && path.at(-1) === 'params') out[key] = '<id>';
      // A listen stream's id is its request's id; a requestState is opaque, signed and expires.
      else if (key === SUBSCRIPTION_ID) out[key] = '<id>';
      else if (key === 'requestState' && typeof v === 'string') out[key] = '<requestState>';
      else if (SESSION_KEYS.test(key) && typeof v === 'string') out[key] = `<${key}>`;
      else if (TIME_KEYS.test(key) && (typeof v === 'number' || typeof v === 'string')) out[key] = '<time>';
      else out[key] = this.walk(v, at);
    }
    return out;
  }

  /** The key requests are matched by: method and normalized params without `_meta`. */
  requestKey(method: string, params: unknown): string {
    const p = params && typeof params === 'object' ? { ...(params as Record<string, unknown>) } : params;
    if (p && typeof p === 'object') delete (p as Record<string, unknown>)._meta;
    return `${method} ${JSON.stringify(this.walk(p ?? {}, ['params']))}`;
  }
}

export interface Difference {
  path: string;
  recorded: unknown;
  live: unknown;
}

/** Every place two normalized values differ, by path. */
export function differences(recorded: unknown, live: unknown, at = ''): Difference[] {
  if (recorded === live) return [];
  const bothObjects = recorded !== null && live !== null && typeof recorded === 'object' && typeof live === 'object';
  if (!bothObjects || Array.isArray(recorded) !== Array.isArray(live)) return [{ path: at || '(root)', recorded, live }];
  const out: Difference[] = [];
  if (Array.isArray(recorded) && Array.isArray(live)) {
    for (let i = 0; i < Math.max(recorded.length, live.length); i++) {
      out.push(...differences(i < recorded.length ? recorded[i] : '<missing>', i < live.length ? live[i] : '<missing>', `${at}[${i}]`));
    }
    return out;
  }
  const r = recorded as Record<string, unknown>;
  const l = live as Record<string, unknown>;
  for (const k of new Set([...Object.keys(r), ...Object.keys(l)])) {
    out.push(...differences(k in r ? r[k] : '<missing>', k in l ? l[k] : '<missing>', at ? `${at}.${k}` : k));
  }
  return out;
}
