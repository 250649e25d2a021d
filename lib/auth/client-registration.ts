/**
 * Getting a client id for an authorization server, in this order: credentials the provider
 * already has for it (pre-registered, or saved by an earlier registration); a Client ID Metadata
 * Document URL when the server supports CIMD; Dynamic Client Registration (RFC 7591) when it has
 * a registration endpoint; else what the user enters when the provider can ask
 * (`promptClientInformation`). The registration asks for `authorization_code` and `refresh_token`
 * and for a token endpoint authentication method the server supports.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#client-registration-approaches
 * @see https://datatracker.ietf.org/doc/html/rfc7591#section-3
 */
import type { FetchLike } from '../../streams/http-fetch.js';
import type { AuthorizationServerMetadata } from './authorization-server-metadata.js';
import { clientIdMetadataUrlProblem } from './client-id-metadata-document.js';
import { AuthorizationError, oauthErrorOf } from './authorization-errors.js';
import type { OAuthClientInformation, OAuthClientProvider } from './provider.js';

/** How the client id was obtained. */
export type ClientSource = 'stored' | 'client-id-metadata-document' | 'dynamic-registration' | 'prompted';

/** The token endpoint authentication method to register, from what the server supports. */
export function registrationAuthMethod(metadata: AuthorizationServerMetadata, wanted?: string): string | undefined {
  const supported = metadata.token_endpoint_auth_methods_supported;
  if (wanted !== undefined) return wanted;
  if (supported === undefined) return undefined; // the server's default (client_secret_basic)
  // A public client by preference: a desktop or CLI MCP client cannot keep a secret.
  return ['none', 'client_secret_basic', 'client_secret_post'].find((m) => supported.includes(m)) ?? supported[0];
}

/** The client credentials to use with the authorization server of `metadata`. */
export async function resolveClient(options: {
  provider: OAuthClientProvider;
  issuer: string;
  metadata: AuthorizationServerMetadata;
  fetch: FetchLike;
}): Promise<{ client: OAuthClientInformation; source: ClientSource }> {
  const { provider, issuer, metadata } = options;
  const stored = await provider.clientInformation(issuer);
  if (stored) return { client: stored, source: 'stored' };

  if (metadata.client_id_metadata_document_supported === true && provider.clientMetadataUrl) {
    const problem = clientIdMetadataUrlProblem(provider.clientMetadataUrl);
    if (problem !== undefined) {
      throw new AuthorizationError('registration_failed', `The provider's client metadata URL ${JSON.stringify(provider.clientMetadataUrl)} cannot be a client id: ${problem}.`, {
        issuer: metadata.issuer,
      });
    }
    return { client: { client_id: provider.clientMetadataUrl, token_endpoint_auth_method: 'none' }, source: 'client-id-metadata-document' };
  }

  if (!metadata.registration_endpoint) {
    const reason =
      `The authorization server ${metadata.issuer} offers no dynamic client registration` +
      `${metadata.client_id_metadata_document_supported ? '' : ' and no client ID metadata documents'}, and no client credentials are configured for it.`;
    // Last in MCP's order: the user enters credentials they registered themselves.
    const prompted = await provider.promptClientInformation?.(issuer, reason);
    if (prompted !== undefined) {
      if (typeof prompted.client_id !== 'string' || prompted.client_id === '') {
        throw new AuthorizationError('registration_unavailable', `${reason} The client information entered has no client_id.`, { issuer: metadata.issuer });
      }
      await provider.saveClientInformation(issuer, prompted);
      return { client: prompted, source: 'prompted' };
    }
    throw new AuthorizationError('registration_unavailable', `${reason} Register a client with it and give the provider its client_id (and secret).`, { issuer: metadata.issuer });
  }
  const client = await registerClient({ ...options, endpoint: metadata.registration_endpoint });
  await provider.saveClientInformation(issuer, client);
  return { client, source: 'dynamic-registration' };
}

/**
 * `application_type` for registration: `native` when the redirect comes back to this machine
 * (loopback host or a custom scheme: a desktop app or CLI), `web` for a remote browser app.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization
 */
export function applicationTypeFor(redirectUrl: string): 'native' | 'web' {
  try {
    const url = new URL(redirectUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'native';
    return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname) ? 'native' : 'web';
  } catch {
    return 'native';
  }
}

/** POSTs the provider's client metadata to the registration endpoint (RFC 7591 §3.1). */
export async function registerClient(options: {
  provider: OAuthClientProvider;
  metadata: AuthorizationServerMetadata;
  endpoint: string;
  fetch: FetchLike;
}): Promise<OAuthClientInformation> {
  const { provider, metadata, endpoint } = options;
  const base = provider.clientMetadata;
  const authMethod = registrationAuthMethod(metadata, base.token_endpoint_auth_method);
  const body = {
    ...base,
    redirect_uris: base.redirect_uris.includes(provider.redirectUrl) ? base.redirect_uris : [...base.redirect_uris, provider.redirectUrl],
    grant_types: base.grant_types ?? ['authorization_code', 'refresh_token'],
    response_types: base.response_types ?? ['code'],
    application_type: (base as { application_type?: string }).application_type ?? applicationTypeFor(provider.redirectUrl),
    ...(authMethod !== undefined && { token_endpoint_auth_method: authMethod }),
  };
  let res: Response;
  try {
    res = await options.fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (e) {
    throw new AuthorizationError('registration_failed', `Registering the client at ${endpoint} failed: ${e instanceof Error ? e.message : String(e)}.`, {
      endpoint,
    });
  }
  const json: unknown = await res.json().catch(() => undefined);
  if (!res.ok) throw registrationRefused(res.status, json, endpoint, body);
  const info = json as Partial<OAuthClientInformation> | undefined;
  if (!info || typeof info.client_id !== 'string' || info.client_id === '') {
    throw new AuthorizationError('registration_failed', `The registration response of ${endpoint} has no client_id.`, { endpoint });
  }
  return {
    ...info,
    client_id: info.client_id,
    // The registered method, or the one asked for when the server did not echo it.
    ...(info.token_endpoint_auth_method === undefined && authMethod !== undefined && { token_endpoint_auth_method: authMethod }),
  } as OAuthClientInformation;
}

/**
 * The error of a refused registration (RFC 7591 §3.2.2), saying what the server objected to and
 * what was sent. An OIDC server may refuse redirect URIs that do not fit the `application_type`
 * (a loopback URI for a `web` client, say): the message names both, so the developer can change
 * the redirect URI or set `application_type` in the client metadata.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization/client-registration#application-type-and-redirect-uri-constraints
 */
function registrationRefused(status: number, json: unknown, endpoint: string, sent: { redirect_uris: string[]; application_type: string }): AuthorizationError {
  const why = oauthErrorOf(json);
  const oauthError = (json as { error?: unknown } | undefined)?.error;
  const code = typeof oauthError === 'string' ? oauthError.slice(0, 100) : undefined;
  const aboutRedirects = code === 'invalid_redirect_uri' || (code === 'invalid_client_metadata' && /redirect|application_type/i.test(why));
  const sentText = `application_type "${sent.application_type}" with redirect URIs ${JSON.stringify(sent.redirect_uris)}`;
  return new AuthorizationError(
    'registration_failed',
    `The authorization server refused to register the client (HTTP ${status}${why ? `, ${why}` : ''}) at ${endpoint}. ` +
      (aboutRedirects
        ? `It objects to the redirect URIs for the application type: the client sent ${sentText}. ` +
          'Use a redirect URI this server allows for that application type (or set application_type in the client metadata), or pre-register a client.'
        : `The client sent ${sentText}. Check the client metadata (redirect URI, grant types), or pre-register a client.`),
    { endpoint, status, ...(code !== undefined && { oauthError: code }), applicationType: sent.application_type, redirectUris: sent.redirect_uris },
  );
}
