/**
 * The keys whose values are secrets, shared by every redaction (server logs, audit records, the
 * CLI's recordings, the library's journals).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging#security
 */

/**
 * Words that end the keys whose values redaction hides, tested against the key in lower case without
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
