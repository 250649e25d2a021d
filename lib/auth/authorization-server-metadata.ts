/**
 * Authorization server metadata discovery: RFC 8414 and OpenID Connect Discovery 1.0, tried in
 * the order MCP gives. For an issuer with a path (`https://as.example.com/tenant1`): RFC 8414
 * path insertion, OIDC path insertion, OIDC path appending. Without a path: RFC 8414, then OIDC.
 * The `issuer` of the document must be the issuer it was fetched for (RFC 8414 §3.3), which
 * defeats mix-up attacks.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-server-metadata-discovery
 * @see https://datatracker.ietf.org/doc/html/rfc8414#section-3
 */
import type { FetchLike } from '../../streams/http-fetch.js';
import { AuthorizationError } from './authorization-errors.js';
import { fetchMetadataDocument, isStringArray } from './well-known-document.js';
import type { AuthorizationServerMetadata } from './discovery-types.js';

export type { AuthorizationServerMetadata } from './discovery-types.js';

/** The metadata URLs to try, in order, for the issuer `issuer`. */
export function authorizationServerMetadataUrls(issuer: string | URL): URL[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  if (path === '') {
    return [new URL('/.well-known/oauth-authorization-server', url.origin), new URL('/.well-known/openid-configuration', url.origin)];
  }
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, url.origin),
    new URL(`/.well-known/openid-configuration${path}`, url.origin),
    new URL(`${path}/.well-known/openid-configuration`, url.origin),
  ];
}

/** Issuer identifiers compared without a trailing slash (`https://as` and `https://as/` are one issuer). */
function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}

/**
 * The metadata of the authorization server `issuer`, or undefined when no well-known location
 * has it. With `checkIssuer` (the default) a document for another issuer is rejected.
 */
export async function discoverAuthorizationServerMetadata(
  issuer: string | URL,
  options: { fetch: FetchLike; checkIssuer?: boolean; urls?: URL[] },
): Promise<{ metadata: AuthorizationServerMetadata; url: string } | undefined> {
  for (const url of options.urls ?? authorizationServerMetadataUrls(issuer)) {
    const outcome = await fetchMetadataDocument(url, options.fetch, 'authorization server metadata');
    if (!outcome.found) continue;
    const metadata = validateAuthorizationServerMetadata(outcome.json, url);
    if ((options.checkIssuer ?? true) && !sameIssuer(metadata.issuer, new URL(issuer).href) && !sameIssuer(metadata.issuer, String(issuer))) {
      throw new AuthorizationError(
        'issuer_mismatch',
        `The authorization server metadata at ${url.href} names issuer ${JSON.stringify(metadata.issuer)}, not ${JSON.stringify(String(issuer))}; ` +
          'it was not used. Ask the server operator to fix the metadata or the protected resource metadata.',
        { url: url.href, issuer: metadata.issuer, expected: String(issuer) },
      );
    }
    return { metadata, url: url.href };
  }
  return undefined;
}

function validateAuthorizationServerMetadata(json: Record<string, unknown>, url: URL): AuthorizationServerMetadata {
  const invalid = (why: string) =>
    new AuthorizationError('discovery_failed', `The authorization server metadata at ${url.href} is invalid: ${why}.`, { url: url.href });
  if (typeof json.issuer !== 'string' || json.issuer === '') throw invalid('`issuer` is missing');
  // RFC 8414 §2: the authorization endpoint is required unless no grant type needs it.
  const grantTypes = json.grant_types_supported;
  const usesAuthorizationEndpoint = !Array.isArray(grantTypes) || grantTypes.includes('authorization_code') || grantTypes.includes('implicit');
  for (const field of ['authorization_endpoint', 'token_endpoint'] as const) {
    const value = json[field];
    if (value === undefined && field === 'authorization_endpoint' && !usesAuthorizationEndpoint) continue;
    if (typeof value !== 'string' || !URL.canParse(value)) throw invalid(`\`${field}\` is not a URL`);
  }
  if (json.registration_endpoint !== undefined && (typeof json.registration_endpoint !== 'string' || !URL.canParse(json.registration_endpoint))) {
    throw invalid('`registration_endpoint` is not a URL');
  }
  for (const field of ['scopes_supported', 'response_types_supported', 'grant_types_supported', 'token_endpoint_auth_methods_supported', 'code_challenge_methods_supported']) {
    const value = json[field];
    if (value !== undefined && !isStringArray(value)) throw invalid(`\`${field}\` is not an array of strings`);
  }
  const responseTypes = json.response_types_supported as string[] | undefined;
  if (usesAuthorizationEndpoint && responseTypes !== undefined && !responseTypes.includes('code')) throw invalid('it does not support response type `code`');
  return json as AuthorizationServerMetadata;
}
