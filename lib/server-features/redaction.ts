/**
 * Redaction of secrets by key, shared by what leaves a process as data about other data: the
 * server's log messages and the client's audit records of tool calls.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging#security
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#security-considerations
 */

import { isSecretKey, REDACTED } from '../shared/secret-keys.js';
import { redactEmbeddedJson } from '../shared/redactor.js';

export { SECRET_KEY_WORDS, SECRET_KEY, isSecretKey, REDACTED } from '../shared/secret-keys.js';

/**
 * The default redaction of log data: the value of every key that names a secret (password,
 * token, api key, authorization, cookie, credential, private key, session id…) is replaced,
 * at any depth, also inside strings that hold JSON (a tool argument `"{\"password\":\"…\"}"`).
 * Redaction by key cannot find every secret or personal detail: pass `redactLog` to add your own rules.
 */
export function redactSecrets(data: unknown): unknown {
  if (typeof data === 'string') return redactEmbeddedJson(data, redactSecrets) ?? data;
  if (Array.isArray(data)) return data.map(redactSecrets);
  if (data === null || typeof data !== 'object') return data;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) out[k] = isSecretKey(k) ? REDACTED : redactSecrets(v);
  return out;
}

/** What {@link redactWithPaths} did: the redacted data, and where (never what) it hid. */
export interface Redacted {
  data: unknown;
  /** Paths of the hidden values, e.g. `request.headers.Authorization`, `items[0].apiKey` (inside a string holding JSON, the string's path goes on: `args.payload.password`). */
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
    // A string holding JSON: the paths inside it go on from the string's own.
    if (typeof value === 'string') return redactEmbeddedJson(value, (inner) => walk(inner, at)) ?? value;
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
