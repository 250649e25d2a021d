/**
 * MCP Apps on the server (the `io.modelcontextprotocol/ui` extension): an app is a `ui://`
 * resource of type `text/html;profile=mcp-app` whose listing and contents carry `_meta.ui` (the
 * origins its view may reach, the permissions it asks for); tools link to it with `ui` in their
 * config. A client that does not render apps is served the text fallback: it is not told of the
 * link, and tools only an app may call are hidden from it.
 *
 * @see https://modelcontextprotocol.io/extensions/apps
 */
import { APP_MIME_TYPE, type AppResourceMeta, type AppToolMeta, type AppToolVisibility } from '../protocol/apps-extension.js';

/** An app's view: its HTML (or a function giving it on each read) and its `_meta.ui`. */
export interface AppResourceConfig extends AppResourceMeta {
  /** Display name (defaults to the URI's path). */
  name?: string;
  title?: string;
  description?: string;
  /** A complete HTML5 document. */
  html: string | (() => string | Promise<string>);
}

/** Why an app or a tool's link to one cannot be registered. */
export class AppRegistrationError extends Error {
  override readonly name = 'AppRegistrationError';
}

/** Check an app resource's URI and HTML; the `_meta.ui` its listing and contents carry. */
export function checkAppResource(uri: string, config: AppResourceConfig): { meta: { ui: AppResourceMeta } } {
  if (typeof uri !== 'string' || !uri.startsWith('ui://') || uri.length <= 'ui://'.length) {
    throw new AppRegistrationError(`An app's URI must use the ui:// scheme (got ${JSON.stringify(uri)})`);
  }
  if (typeof config.html === 'string' && !/^\s*(<!--[\s\S]*?-->\s*)*<!doctype html/i.test(config.html)) {
    throw new AppRegistrationError(`The app at ${uri} must be a complete HTML5 document starting with <!DOCTYPE html>`);
  }
  if (typeof config.html !== 'string' && typeof config.html !== 'function') throw new AppRegistrationError(`The app at ${uri} needs html: a string or a function returning one`);
  const ui: AppResourceMeta = {};
  if (config.csp !== undefined) ui.csp = structuredClone(config.csp);
  if (config.permissions !== undefined) ui.permissions = structuredClone(config.permissions);
  if (config.domain !== undefined) ui.domain = config.domain;
  if (config.prefersBorder !== undefined) ui.prefersBorder = config.prefersBorder;
  return { meta: { ui } };
}

/** The `_meta` a tool linked to an app carries (the current `ui` object and the deprecated flat key older hosts read). */
export function appToolMetaFor(toolName: string, ui: AppToolMeta, meta: Record<string, unknown> | undefined): Record<string, unknown> {
  if (typeof ui.resourceUri !== 'string' || !ui.resourceUri.startsWith('ui://')) {
    throw new AppRegistrationError(`Tool "${toolName}": ui.resourceUri must be a ui:// URI of an app resource`);
  }
  const visibility = ui.visibility;
  if (visibility !== undefined && (!Array.isArray(visibility) || visibility.length === 0 || visibility.some((v) => v !== 'model' && v !== 'app'))) {
    throw new AppRegistrationError(`Tool "${toolName}": ui.visibility must list "model", "app" or both`);
  }
  const link: AppToolMeta = { resourceUri: ui.resourceUri, ...(visibility !== undefined && { visibility: [...visibility] as AppToolVisibility[] }) };
  return { ...meta, ui: link, 'ui/resourceUri': ui.resourceUri };
}

/** A tool as a client that does not render apps sees it: no link; undefined when only an app may call it. */
export function withoutAppLink<T extends { _meta?: Record<string, unknown> }>(tool: T): T | undefined {
  const ui = tool._meta?.['ui'] as AppToolMeta | undefined;
  if (ui === undefined && tool._meta?.['ui/resourceUri'] === undefined) return tool;
  if (ui?.visibility !== undefined && !ui.visibility.includes('model')) return undefined;
  const { ui: _ui, 'ui/resourceUri': _flat, ...rest } = tool._meta!;
  const out = { ...tool };
  if (Object.keys(rest).length > 0) out._meta = rest;
  else delete out._meta;
  return out;
}

export { APP_MIME_TYPE };
