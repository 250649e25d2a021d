/**
 * The host's side of MCP Apps that is not the page's: which tools the agent (the model) is offered,
 * what an app may reach on its own server, and fetching the view a tool links to, from the server
 * that serves the tool, refusing one the server does not serve (or that is no app).
 * @see https://modelcontextprotocol.io/extensions/apps
 */
import { base64Decode, utf8Decode } from '../crypto/bytes.js';
import { APP_MIME_TYPE, appToolMeta, type AppResourceMeta } from '../protocol/apps-extension.js';
import type { ReadResourceResult, Tool } from '../protocol/schema/index.js';

/**
 * Whether the agent may see (and call) a tool: its `_meta.ui.visibility` includes `"model"`, or it
 * has none (the default is both). An app-only tool (`["app"]`) is for its app alone.
 * @see https://modelcontextprotocol.io/extensions/apps (Resource Discovery: Visibility)
 */
export function visibleToModel(tool: Pick<Tool, '_meta'>): boolean {
  const visibility = appToolMeta(tool._meta as Record<string, unknown> | undefined)?.visibility;
  return !Array.isArray(visibility) || visibility.includes('model');
}

/** Why a tool's view cannot be shown. */
export class AppViewError extends Error {
  override readonly name = 'AppViewError';
  constructor(
    message: string,
    /** `no-app`: the tool links to no view; `missing`: its server does not serve the view; `not-an-app`: what it serves is no app HTML. */
    readonly reason: 'no-app' | 'missing' | 'not-an-app',
    readonly resourceUri?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A tool's view, ready for `bridge.show({ ...view, toolInput })`. */
export interface AppView {
  /** The tool as its server lists it (original name). */
  readonly tool: Tool;
  readonly resourceUri: string;
  readonly html: string;
  /** The content's `_meta.ui` (its CSP, permissions...). */
  readonly meta: AppResourceMeta;
}

/**
 * Read the view `tool` links to with `read` (the tool's own server's `resources/read`). The spec
 * says the resource must exist on the server: one that does not, or that is not app HTML, is
 * refused with an {@link AppViewError} naming the tool and the URI, rather than shown as nothing.
 */
export async function readAppView(server: string, tool: Tool, read: (uri: string) => Promise<ReadResourceResult>): Promise<AppView> {
  const uri = appToolMeta(tool._meta as Record<string, unknown> | undefined)?.resourceUri;
  if (typeof uri !== 'string' || !uri.startsWith('ui://')) {
    throw new AppViewError(`The tool "${tool.name}" of ${server} links to no app view (no ui:// _meta.ui.resourceUri)`, 'no-app');
  }
  let result: ReadResourceResult;
  try {
    result = await read(uri);
  } catch (e) {
    throw new AppViewError(`The tool "${tool.name}" links to ${uri}, which ${server} does not serve (${(e as Error)?.message ?? String(e)}): an app's view must exist on its server`, 'missing', uri, { cause: e });
  }
  const content = result.contents.find((c) => c.uri === uri) ?? result.contents[0];
  if (content === undefined) throw new AppViewError(`${server} answered the read of ${uri} with no content: an app's view must exist on its server`, 'missing', uri);
  // The view comes as text or as base64 (blob).
  const raw = content as { text?: unknown; blob?: unknown };
  const text = typeof raw.text === 'string' ? raw.text : typeof raw.blob === 'string' ? utf8Decode(base64Decode(raw.blob)) : undefined;
  if (content.mimeType !== APP_MIME_TYPE || typeof text !== 'string') {
    throw new AppViewError(`${uri} of ${server} is ${String(content.mimeType ?? 'untyped')}${typeof text === 'string' ? '' : ' without text or blob'}, not an app view (${APP_MIME_TYPE})`, 'not-an-app', uri);
  }
  const ui = (content._meta as { ui?: unknown } | undefined)?.ui;
  return { tool, resourceUri: uri, html: text, meta: ui !== null && typeof ui === 'object' ? (ui as AppResourceMeta) : {} };
}
