/**
 * Redaction of secrets by key, shared by what leaves a process as data about other data: the
 * server's log messages and the client's audit records of tool calls.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging#security
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#security-considerations
 */

/**
 * Words that end the keys whose values {@link redactSecrets} hides, tested against the key in lower case without
 * `-`, `_` and the like (`api_key`, `apiKey` and `X-Api-Key` all end in `apikey`); `maxTokens`
 * and `tokenCount` are not secrets.
 */
export const SECRET_KEY_WORDS: readonly string[] = ['password', 'passwd', 'passphrase', 'secret', 'token', 'apikey', 'authorization', 'cookie', 'setcookie', 'credential', 'credentials', 'privatekey', 'sessionid'];
/** {@link SECRET_KEY_WORDS} at the end of a key (see {@link isSecretKey}). */
export const SECRET_KEY = new RegExp(`(${SECRET_KEY_WORDS.join('|')})$`);

/** Whether `key` names a secret (see {@link SECRET_KEY}). */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key.toLowerCase().replace(/[^a-z0-9]/g, ''));
}

/** What a redacted value becomes. */
export const REDACTED = '[REDACTED]';

/**
 * The default redaction of log data: the value of every key that names a secret (password,
 * token, api key, authorization, cookie, credential, private key, session id…) is replaced,
 * at any depth. Redaction by key cannot find every secret or personal detail: pass
 * `redactLog` to add your own rules.
 */
export function redactSecrets(data: unknown): unknown {
  if (Array.isArray(data)) return data.map(redactSecrets);
  if (data === null || typeof data !== 'object') return data;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) out[k] = isSecretKey(k) ? REDACTED : redactSecrets(v);
  return out;
}

/** What {@link redactWithPaths} did: the redacted data, and where (never what) it hid. */
export interface Redacted {
  data: unknown;
  /** Paths of the hidden values, e.g. `request.headers.Authorization`, `items[0].apiKey`. */
  paths: string[];
}

/**
 * {@link redactSecrets}, also saying which paths it hid, so that a server can monitor for
 * sensitive content reaching its logs without the content itself.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging#security
 */
export function redactWithPaths(data: unknown): Redacted {
  const paths: string[] = [];
  const walk = (value: unknown, at: string): unknown => {
    if (Array.isArray(value)) return value.map((v, i) => walk(v, `${at}[${i}]`));
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const path = at === '' ? k : `${at}.${k}`;
      if (isSecretKey(k)) {
        out[k] = REDACTED;
        paths.push(path);
      } else {
        out[k] = walk(v, path);
      }
    }
    return out;
  };
  return { data: walk(data, ''), paths };
}
