/**
 * Who the caller is, as one key: the single identity function that binds HTTP sessions, owns
 * tasks and binds a 2026-07-28 `requestState`, so that the three cannot disagree about who is
 * who (a state bound to the OAuth client instead of the user let a second user of that client
 * finish the first one's request).
 *
 * The key is the subject (`sub`, `subject` as the bearer hook's auth info carries it, `userId`,
 * or `extra.sub`) when there is one, else the `clientId`, else the `token`, else the JSON of the
 * value. Kinds are prefixed (`sub:`, `client:`...) so that a client id never equals a subject.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/mrtr
 */
export function principalOf(authInfo: unknown): string | undefined {
  if (authInfo === undefined || authInfo === null) return undefined;
  if (typeof authInfo !== 'object') return `value:${String(authInfo)}`;
  const a = authInfo as Record<string, unknown>;
  const extra = a.extra as Record<string, unknown> | undefined;
  for (const v of [a.sub, a.subject, a.userId, extra?.sub]) {
    if (typeof v === 'string' || typeof v === 'number') return `sub:${v}`;
  }
  if (typeof a.clientId === 'string') return `client:${a.clientId}`;
  if (typeof a.token === 'string') return `token:${a.token}`;
  return `json:${JSON.stringify(authInfo)}`;
}
