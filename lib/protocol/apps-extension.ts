/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension): the identifiers and shapes both sides
 * use: `ui://` resources of type `text/html;profile=mcp-app` with `_meta.ui` (CSP, permissions),
 * tools linked to them by `_meta.ui.resourceUri` and `visibility`, and the client's declaration.
 *
 * @see https://modelcontextprotocol.io/extensions/apps
 */

/** The extension's identifier (its key under `capabilities.extensions`). */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';
/** The content type of an app's HTML. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The Apps protocol version spoken between a host and a view. */
export const APPS_PROTOCOL_VERSION = '2026-01-26';

/** Origins an app's view may reach, each mapped to CSP directives by the host. */
export interface AppCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** Browser features an app asks for (a host may grant them through the iframe's `allow`). */
export interface AppPermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/** `_meta.ui` of an app resource and of its contents. */
export interface AppResourceMeta {
  csp?: AppCsp;
  permissions?: AppPermissions;
  /** A dedicated origin for the view (host-specific format). */
  domain?: string;
  prefersBorder?: boolean;
}

/** Who may call a tool: the model, the app, or both (the default). */
export type AppToolVisibility = 'model' | 'app';

/** `_meta.ui` of a tool linked to an app. */
export interface AppToolMeta {
  resourceUri?: string;
  visibility?: AppToolVisibility[];
}

/** The capability a client (host) declares to say it renders apps (`client.declareCapabilities(appsCapability())`). */
export function appsCapability(mimeTypes: string[] = [APP_MIME_TYPE]): { extensions: Record<string, { mimeTypes: string[] }> } {
  return { extensions: { [APPS_EXTENSION]: { mimeTypes } } };
}

/** Whether client capabilities say the client renders MCP Apps HTML views. */
export function clientRendersApps(capabilities: Record<string, unknown> | undefined): boolean {
  const ext = capabilities?.['extensions'];
  if (ext === null || typeof ext !== 'object') return false;
  const ui = (ext as Record<string, unknown>)[APPS_EXTENSION] as { mimeTypes?: unknown } | undefined;
  return ui !== null && typeof ui === 'object' && Array.isArray(ui.mimeTypes) && ui.mimeTypes.includes(APP_MIME_TYPE);
}

/** The tool's app link, from its `_meta` (the current `ui` object, or the deprecated flat key). */
export function appToolMeta(meta: Record<string, unknown> | undefined): AppToolMeta | undefined {
  const ui = meta?.['ui'] as AppToolMeta | undefined;
  if (ui !== null && typeof ui === 'object') return ui;
  const flat = meta?.['ui/resourceUri'];
  return typeof flat === 'string' ? { resourceUri: flat } : undefined;
}

/**
 * The CSP a host applies to a view with `csp` (the spec's restrictive default when absent;
 * declared origins added, nothing else allowed; `object-src 'none'` always).
 */
export function appContentSecurityPolicy(csp: AppCsp | undefined): string {
  const list = (domains: string[] | undefined) => (domains ?? []).filter((d) => /^(https?|wss?):\/\/[A-Za-z0-9*.:[\]-]+$/.test(d)).join(' ');
  const resources = list(csp?.resourceDomains);
  const connect = list(csp?.connectDomains);
  const frames = list(csp?.frameDomains);
  const bases = list(csp?.baseUriDomains);
  const withR = (base: string) => (resources ? `${base} ${resources}` : base);
  return [
    "default-src 'none'",
    `script-src ${withR("'self' 'unsafe-inline'")}`,
    `style-src ${withR("'self' 'unsafe-inline'")}`,
    `img-src ${withR("'self' data:")}`,
    `font-src ${withR("'self' data:")}`,
    `media-src ${withR("'self' data:")}`,
    `connect-src ${connect || "'none'"}`,
    `frame-src ${frames || "'none'"}`,
    `base-uri ${bases ? `'self' ${bases}` : "'self'"}`,
    "object-src 'none'",
  ].join('; ');
}
