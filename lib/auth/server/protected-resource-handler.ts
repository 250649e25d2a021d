/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) for an MCP server: the document that tells a
 * client which authorization servers issue tokens for it, served at the well-known URLs.
 *
 * @see https://modelcontextprotocol.io/specification/draft/basic/authorization#authorization-server-location
 * @see https://datatracker.ietf.org/doc/html/rfc9728#section-3
 */
import type { HttpRequestIn, HttpResponseOut } from '../../../streams/http-shape.js';
import { WebRequestIn, WebResponseOut } from '../../../streams/fetch-shim.js';
import { canonicalResourceUri } from '../canonical-resource.js';
import { PROTECTED_RESOURCE_WELL_KNOWN, protectedResourceMetadataUrl, type ProtectedResourceMetadata } from '../protected-resource-metadata.js';
import { utf8ByteLength } from '../../crypto/bytes.js';
import { refuseOfflineAccess } from './scope-hierarchy.js';


/** The document a resource server serves: it always names its authorization servers and the header method. */
export interface ServedProtectedResourceMetadata extends ProtectedResourceMetadata {
  authorization_servers: string[];
  bearer_methods_supported: ['header'];
}

export interface ProtectedResourceMetadataOptions {
  /** This server's canonical URI, e.g. `https://mcp.example.com/mcp`. */
  resource: string | URL;
  /** The issuers of the authorization servers that issue tokens for it: at least one. */
  authorizationServers: readonly (string | URL)[];
  /** Scopes the client may ask for (never `offline_access`: refresh tokens are not a resource requirement). */
  scopesSupported?: readonly string[];
  /** A human-readable name. */
  resourceName?: string;
  /** A page for developers. */
  resourceDocumentation?: string | URL;
  /** Further members (RFC 9728 §2 and extensions); they cannot replace the ones above. */
  extra?: Readonly<Record<string, unknown>>;
  /** `Cache-Control: max-age` of the document, in seconds. Default 3600. */
  maxAgeSeconds?: number;
}

/** The handler mounted beside: node's `(req, res)` or the MCP handler (a method, so node-typed handlers fit). */
type NodeHandler = { handle(req: HttpRequestIn, res: HttpResponseOut, ...rest: any[]): void }['handle'] & { path?: string; close?: () => Promise<void> };

/** The handler: serves the document at its paths and passes everything else on. */
export interface ProtectedResourceMetadataHandler {
  (req: HttpRequestIn, res: HttpResponseOut, next?: unknown): void;
  /** The document served. */
  readonly metadata: Readonly<ServedProtectedResourceMetadata>;
  /** The paths it answers: the path-based one first (RFC 9728 §3.1), then the root one. */
  readonly paths: readonly string[];
  /** The URL to put in `resource_metadata` (the path-based one). */
  readonly url: string;
  /** The `next` handler's path (so `listen()` reports the MCP endpoint's URL). */
  readonly path?: string;
  /** Closes the `next` handler. */
  close(): Promise<void>;
}

/** Builds and checks the document. Throws a TypeError for a resource or server that cannot be served. */
export function protectedResourceMetadata(options: ProtectedResourceMetadataOptions): ServedProtectedResourceMetadata {
  const resource = canonicalResourceUri(options.resource);
  refuseOfflineAccess(options.scopesSupported, 'scopesSupported');
  const extraScopes = options.extra?.scopes_supported;
  if (Array.isArray(extraScopes)) refuseOfflineAccess(extraScopes as string[], 'extra.scopes_supported');
  const servers = options.authorizationServers ?? [];
  if (servers.length === 0) {
    throw new TypeError('Protected Resource Metadata needs at least one authorization server (authorizationServers): clients discover where to get tokens from it');
  }
  const authorization_servers = servers.map((s) => {
    let url: URL;
    try {
      url = new URL(String(s));
    } catch {
      throw new TypeError(`Authorization server "${String(s)}" is not an absolute URL (give its issuer, e.g. https://auth.example.com)`);
    }
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.hash !== '' || url.search !== '') {
      throw new TypeError(`Authorization server "${String(s)}" must be an http(s) issuer URL without query or fragment`);
    }
    // An issuer is compared as a string by clients: keep what the user wrote, minus a lone trailing slash.
    return String(s).replace(/\/$/, '');
  });
  const doc: ServedProtectedResourceMetadata = {
    ...(options.extra ?? {}),
    resource,
    authorization_servers,
    bearer_methods_supported: ['header'],
  };
  if (options.scopesSupported !== undefined) doc.scopes_supported = [...options.scopesSupported];
  if (options.resourceName !== undefined) doc.resource_name = options.resourceName;
  if (options.resourceDocumentation !== undefined) doc.resource_documentation = new URL(String(options.resourceDocumentation)).href;
  return doc;
}

/**
 * A node handler serving the metadata at `/.well-known/oauth-protected-resource<path>` and
 * `/.well-known/oauth-protected-resource`, to any origin (it is public). Other requests go to
 * `next`: a handler to mount beside (e.g. `createStreamableHttpHandler(server)`), or the third
 * argument when used as Express/Connect middleware; with neither, 404.
 *
 * ```ts
 * await listen(createProtectedResourceMetadataHandler({ resource, authorizationServers: [issuer] }, mcpHandler));
 * ```
 * @see https://datatracker.ietf.org/doc/html/rfc9728#section-3
 */
export function createProtectedResourceMetadataHandler(options: ProtectedResourceMetadataOptions, next?: NodeHandler): ProtectedResourceMetadataHandler {
  const metadata = Object.freeze(protectedResourceMetadata(options));
  const url = protectedResourceMetadataUrl(metadata.resource);
  const pathBased = new URL(url).pathname;
  const paths = pathBased === PROTECTED_RESOURCE_WELL_KNOWN ? [pathBased] : [pathBased, PROTECTED_RESOURCE_WELL_KNOWN];
  const body = JSON.stringify(metadata);
  const maxAge = options.maxAgeSeconds ?? 3600;

  const handler = ((req: HttpRequestIn, res: HttpResponseOut, nextArg?: unknown) => {
    const raw = req.originalUrl ?? req.url ?? '/';
    const q = raw.indexOf('?');
    const pathname = q < 0 ? raw : raw.slice(0, q);
    if (!paths.includes(pathname)) {
      if (typeof nextArg === 'function') (nextArg as () => void)();
      else if (next !== undefined) next(req, res, nextArg);
      else {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'not_found' }));
      }
      return;
    }
    const cors = { 'access-control-allow-origin': '*' };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...cors, 'access-control-allow-methods': 'GET, OPTIONS', 'access-control-allow-headers': '*', 'access-control-max-age': '86400' });
      res.end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...cors, allow: 'GET, HEAD, OPTIONS', 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'method_not_allowed' }));
      return;
    }
    res.writeHead(200, {
      ...cors,
      'content-type': 'application/json',
      'content-length': utf8ByteLength(body),
      'cache-control': `public, max-age=${maxAge}`,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }) as ProtectedResourceMetadataHandler;

  Object.defineProperties(handler, {
    metadata: { value: metadata, enumerable: true },
    paths: { value: Object.freeze(paths), enumerable: true },
    url: { value: url, enumerable: true },
    path: { value: next?.path, enumerable: true },
    close: { value: () => next?.close?.() ?? Promise.resolve() },
  });
  return handler;
}

/** A fetch handler (`createMcpFetchHandler`'s), for {@link createProtectedResourceMetadataFetchHandler}. */
type FetchNext = ((request: Request) => Response | Promise<Response>) & { path?: string; close?: () => Promise<void> };

/** The fetch form of {@link ProtectedResourceMetadataHandler}. */
export interface ProtectedResourceMetadataFetchHandler {
  (request: Request): Promise<Response>;
  readonly metadata: Readonly<ServedProtectedResourceMetadata>;
  readonly paths: readonly string[];
  readonly url: string;
  readonly path?: string;
  close(): Promise<void>;
}

/**
 * The Web-standard form of {@link createProtectedResourceMetadataHandler}: serves the document
 * (the same answers, the same code) and hands every other request to `next`, a fetch handler such
 * as `createMcpFetchHandler(mcp)`.
 *
 * ```ts
 * export default { fetch: createProtectedResourceMetadataFetchHandler({ resource, authorizationServers: [issuer] }, mcpHandler) };
 * ```
 * @see https://datatracker.ietf.org/doc/html/rfc9728#section-3
 */
export function createProtectedResourceMetadataFetchHandler(options: ProtectedResourceMetadataOptions, next?: FetchNext): ProtectedResourceMetadataFetchHandler {
  const served = createProtectedResourceMetadataHandler(options);
  const handler = ((request: Request): Promise<Response> => {
    let passed: Promise<Response> | undefined;
    const res = new WebResponseOut();
    served(new WebRequestIn(request, undefined), res, () => {
      passed = next !== undefined ? Promise.resolve(next(request)) : Promise.resolve(Response.json({ error: 'not_found' }, { status: 404 }));
    });
    return passed ?? res.response;
  }) as ProtectedResourceMetadataFetchHandler;
  Object.defineProperties(handler, {
    metadata: { value: served.metadata, enumerable: true },
    paths: { value: served.paths, enumerable: true },
    url: { value: served.url, enumerable: true },
    path: { value: next?.path, enumerable: true },
    close: { value: () => next?.close?.() ?? Promise.resolve() },
  });
  return handler;
}
