/**
 * The `WWW-Authenticate` header of Bearer challenges, both ways. Parsing (the client, RFC 9110
 * §11.6.1): one or more challenges, each a scheme followed by a token68 or by `name=value`
 * parameters (values are tokens or quoted strings). Writing (the resource server): one Bearer
 * challenge with quoted values. The parameters: `realm`, `error`, `error_description`, `scope`
 * (RFC 6750 §3) and `resource_metadata` (RFC 9728 §5.1).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-server-location
 * @see https://www.rfc-editor.org/rfc/rfc6750.html#section-3
 */

/** One challenge: its scheme (lower case) and its parameters (names lower case). */
export interface AuthChallenge {
  scheme: string;
  params: Record<string, string>;
  token68?: string;
}

/** What a Bearer challenge says. */
export interface BearerChallenge {
  realm?: string;
  error?: string;
  errorDescription?: string;
  /** The scopes the server asks for, split on spaces. */
  scope?: string[];
  /** The protected resource metadata URL (RFC 9728 §5.1). */
  resourceMetadata?: string;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*/;

/** Every challenge in a `WWW-Authenticate` value. Malformed parts end the parse; what came before is kept. */
export function parseWwwAuthenticate(header: string): AuthChallenge[] {
  const challenges: AuthChallenge[] = [];
  let rest = header;
  const skip = (re: RegExp) => {
    const m = re.exec(rest);
    if (m) rest = rest.slice(m[0].length);
    return m;
  };
  let current: AuthChallenge | undefined;
  while (true) {
    skip(/^[\s,]*/);
    if (rest === '') break;
    const name = skip(TOKEN);
    if (!name) break;
    const afterName = rest;
    skip(/^\s*/);
    if (current && rest.startsWith('=') && !rest.startsWith('==')) {
      // A parameter of the current challenge.
      rest = rest.slice(1);
      skip(/^\s*/);
      let value: string;
      if (rest.startsWith('"')) {
        let i = 1;
        value = '';
        while (i < rest.length && rest[i] !== '"') {
          if (rest[i] === '\\' && i + 1 < rest.length) i++;
          value += rest[i];
          i++;
        }
        rest = rest.slice(i + 1);
      } else {
        const v = skip(TOKEN);
        value = v ? v[0] : '';
      }
      current.params[name[0].toLowerCase()] = value;
      continue;
    }
    // A new challenge: scheme, then an optional token68.
    rest = afterName;
    current = { scheme: name[0].toLowerCase(), params: {} };
    challenges.push(current);
    const spaced = skip(/^\s+/);
    if (spaced) {
      const save = rest;
      const t68 = skip(TOKEN68);
      if (t68 && /^\s*(,|$)/.test(rest)) current.token68 = t68[0];
      else rest = save;
    }
  }
  return challenges;
}

/** The Bearer challenge of a `WWW-Authenticate` value, if there is one. */
export function bearerChallenge(header: string | null | undefined): BearerChallenge | undefined {
  return challengeOf(header, ['bearer']);
}

/**
 * The challenge of a protected resource: its Bearer challenge, else its DPoP one (RFC 9449 §7.1:
 * same parameters, plus `algs`), if there is one.
 */
export function resourceChallenge(header: string | null | undefined): BearerChallenge | undefined {
  return challengeOf(header, ['bearer', 'dpop']);
}

function challengeOf(header: string | null | undefined, schemes: string[]): BearerChallenge | undefined {
  if (!header) return undefined;
  const all = parseWwwAuthenticate(header);
  const found = schemes.map((s) => all.find((c) => c.scheme === s)).find((c) => c !== undefined);
  if (!found) return undefined;
  const p = found.params;
  const scope = p.scope?.split(' ').filter(Boolean);
  return {
    ...(p.realm !== undefined && { realm: p.realm }),
    ...(p.error !== undefined && { error: p.error }),
    ...(p.error_description !== undefined && { errorDescription: p.error_description }),
    ...(scope !== undefined && scope.length > 0 && { scope }),
    ...(p.resource_metadata !== undefined && p.resource_metadata !== '' && { resourceMetadata: p.resource_metadata }),
  };
}

/**
 * RFC 6750 limits `error_description` to printable ASCII without `"` and `\`: anything else
 * becomes a space, and it is kept short.
 */
export function sanitizeErrorDescription(text: string): string {
  return text.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, ' ').slice(0, 300);
}

function quote(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** The header value: `Bearer realm="…", error="…", error_description="…", scope="…", resource_metadata="…"`. */
export function formatBearerChallenge(c: BearerChallenge): string {
  const params: string[] = [];
  if (c.realm !== undefined) params.push(`realm=${quote(c.realm)}`);
  if (c.error !== undefined) params.push(`error=${quote(c.error)}`);
  if (c.errorDescription !== undefined) params.push(`error_description=${quote(sanitizeErrorDescription(c.errorDescription))}`);
  // Scope tokens cannot hold spaces, quotes or backslashes (RFC 6749 §3.3).
  const scope = c.scope?.filter((s) => /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s));
  if (scope !== undefined && scope.length > 0) params.push(`scope=${quote(scope.join(' '))}`);
  if (c.resourceMetadata !== undefined) params.push(`resource_metadata=${quote(c.resourceMetadata)}`);
  return params.length === 0 ? 'Bearer' : `Bearer ${params.join(', ')}`;
}
