/**
 * Secrets out of a recording before anything is written: values of secret-named keys at any depth
 * (token, password, authorization, api key, cookie, session id… as the server's log redaction
 * knows them), keys the user names (`--redact KEY`), `Bearer …` / `Basic …` credentials inside
 * strings, the same inside strings that hold JSON (a tool argument `"{\"password\":\"…\"}"`),
 * and HTTP headers that carry credentials.
 */
import { isSecretKey, REDACTED, SECRET_KEY_WORDS } from './secret-keys.js';

/** Anything but a letter or a digit, any number of times. */
const SEP = '[^a-z0-9]*';

export { REDACTED };

/** How deep `Redactor.value` looks into a value (far past any real frame; JSON.stringify fails long before 100,000). */
export const MAX_REDACT_DEPTH = 1000;
const TOO_DEEP = `${REDACTED}: nested deeper than ${MAX_REDACT_DEPTH} levels`;
/**
 * Strings holding JSON are looked into up to this length (characters) and this many strings deep
 * (JSON in a string in JSON in a string...); beyond either, one that may hold a secret is hidden whole.
 */
export const MAX_EMBEDDED_JSON_CHARS = 1024 * 1024;
export const MAX_EMBEDDED_JSON_LEVELS = 8;
const UNREADABLE_JSON = `${REDACTED}: JSON text too long or nested in too many strings to look through`;
/** An ASCII character spelled as a `\u` escape could spell a secret word, hidden from a look at the text. */
const ESCAPED_ASCII = /\\u00[0-7]/i;
const CREDENTIAL_IN_TEXT = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g;
/**
 * The words of secret-named keys ({@link SECRET_KEY_WORDS}) as they may appear in a JSON text:
 * any case, anything but a letter or digit between two letters (`pass_word`, `API-Key`), which
 * `isSecretKey` drops before it looks. `token` right after `progress` is left to
 * {@link otherProgressToken}; `Bearer` and `Basic` credentials too (`\t` is written `\\t`).
 */
const SECRET_WORDS_IN_TEXT = [
  ...SECRET_KEY_WORDS.filter((w) => w !== 'token').map(spread),
  `(?<!progress)${spread('token')}`,
  'bearer',
  'basic(?:\\s|\\\\)',
].join('|');
/** `progress`, then `token` (any case, any separators): only the exact key `"progressToken"` is no secret. */
const PROGRESS_TOKEN = new RegExp(`progress${SEP}${spread('token')}`, 'gi');

/** `word` with anything but letters and digits allowed between its letters. */
function spread(word: string): string {
  return word.split('').join(SEP);
}

/** Whether `text` holds a progress token key other than the exact, quoted `"progressToken"` (`myProgressToken`, `progress_token`). */
function otherProgressToken(text: string): boolean {
  if (!/progress/i.test(text)) return false;
  for (const m of text.matchAll(PROGRESS_TOKEN)) {
    if (m[0] !== 'progressToken' || text[m.index - 1] !== '"' || text[m.index + m[0].length] !== '"') return true;
  }
  return false;
}

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api-key']);

export class Redactor {
  private readonly extra: Set<string>;
  /** How many values were hidden so far. */
  count = 0;
  private readonly suspicious: RegExp;
  /** How many strings holding JSON the walk is inside. */
  private embedded = 0;
  constructor(extraKeys: readonly string[] = []) {
    this.extra = new Set(extraKeys.map((k) => k.toLowerCase()));
    const escaped = extraKeys.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    this.suspicious = new RegExp([SECRET_WORDS_IN_TEXT, ...escaped].join('|'), 'i');
  }

  /** The keys `--redact` names, in lower case (null when there are none). */
  get extraKeys(): ReadonlySet<string> | null {
    return this.extra.size === 0 ? null : this.extra;
  }

  /**
   * Whether a JSON text may hold something to redact (when not, it can be written as it is): a
   * word every secret-named key ends in (as {@link isSecretKey} reads keys: any case, any
   * separators between its letters), a credential scheme, a key the user named, or an escape.
   */
  mayHoldSecrets(text: string): boolean {
    return this.suspicious.test(text) || ESCAPED_ASCII.test(text) || otherProgressToken(text);
  }

  private secret(key: string): boolean {
    // `sessionId` names the MCP session, which is no credential on its own and is needed to read a recording.
    if (key === 'sessionId') return this.extra.has('sessionid');
    // A progress token only pairs notifications with their request.
    if (key === 'progressToken') return false;
    return isSecretKey(key) || this.extra.has(key.toLowerCase());
  }

  /**
   * A copy of `value` with the secrets replaced by "[REDACTED]". What is nested deeper than
   * {@link MAX_REDACT_DEPTH} is replaced whole (it cannot be looked through without exhausting the
   * stack, nor written back as JSON): a peer's absurd frame must not end the recording.
   */
  value(value: unknown, depth = 0): unknown {
    if (depth > MAX_REDACT_DEPTH && value !== null && typeof value === 'object') {
      this.count++;
      return TOO_DEEP;
    }
    if (typeof value === 'string') {
      if (looksLikeJson(value) && this.mayHoldSecrets(value)) {
        const inner = this.embeddedJson(value, depth);
        if (inner !== undefined) return inner;
      }
      if (!value.includes('Bearer') && !value.includes('Basic')) return value;
      const out = value.replace(CREDENTIAL_IN_TEXT, (_m, scheme: string) => {
        this.count++;
        return `${scheme} ${REDACTED}`;
      });
      return out;
    }
    if (Array.isArray(value)) return value.map((v) => this.value(v, depth + 1));
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (this.secret(k) && v !== null && v !== undefined && v !== '') {
        out[k] = REDACTED;
        this.count++;
      } else {
        out[k] = this.value(v, depth + 1);
      }
    }
    return out;
  }

  /**
   * A string holding a JSON object or array, with the secrets inside hidden and encoded again;
   * undefined when it is no JSON or nothing inside was hidden (the string is then kept as it is).
   */
  private embeddedJson(text: string, depth: number): string | undefined {
    if (text.length > MAX_EMBEDDED_JSON_CHARS || this.embedded >= MAX_EMBEDDED_JSON_LEVELS) {
      this.count++;
      return UNREADABLE_JSON;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return undefined;
    }
    const before = this.count;
    this.embedded++;
    try {
      const out = this.value(parsed, depth + 1);
      return this.count === before ? undefined : JSON.stringify(out);
    } finally {
      this.embedded--;
    }
  }

  /** HTTP headers to keep in a recording (credentials hidden). */
  headers(headers: Record<string, string | string[] | undefined>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) {
      if (v === undefined) continue;
      const lower = k.toLowerCase();
      if (SECRET_HEADERS.has(lower) || this.extra.has(lower)) {
        out[lower] = REDACTED;
        this.count++;
      } else {
        out[lower] = Array.isArray(v) ? v.join(', ') : v;
      }
    }
    return out;
  }
}

/**
 * `text` with the secrets inside hidden, when it holds a JSON object or array (up to
 * {@link MAX_EMBEDDED_JSON_CHARS} characters) and `walk` hid something in it; undefined otherwise
 * (no JSON, or nothing hidden: the string is then kept as it is). `walk` is the caller's
 * redaction of a parsed value, which may come back here for strings deeper in.
 */
export function redactEmbeddedJson(text: string, walk: (value: unknown) => unknown): string | undefined {
  if (!looksLikeJson(text)) return undefined;
  if (text.length > MAX_EMBEDDED_JSON_CHARS) return isSecretLike(text) ? UNREADABLE_JSON : undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const before = JSON.stringify(parsed);
  const after = JSON.stringify(walk(parsed));
  return after === before ? undefined : after;
}

/** Words every secret-named key contains, or an escape that could spell one. */
function isSecretLike(text: string): boolean {
  return /(?<!progress)token|passw|passphrase|secret|api[^a-z0-9]*key|authorization|cookie|credential|private[^a-z0-9]*key|session[^a-z0-9]*id/i.test(text) || ESCAPED_ASCII.test(text);
}

/** Whether a string's first character past JSON white space opens an object or an array. */
function looksLikeJson(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) return true;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
  }
  return false;
}
