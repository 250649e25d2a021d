/**
 * `mcp-actors/apps`: MCP Apps for browser hosts (the `io.modelcontextprotocol/ui` extension).
 * `createAppBridge` renders a server's `ui://` view through a sandbox proxy on another origin and
 * runs its JSON-RPC over `postMessage` (`machines/app-bridge.machine.ts`); `sandboxProxyHtml`
 * is the proxy page to serve on that origin.
 *
 * @see https://modelcontextprotocol.io/extensions/apps
 */
export { AppBridge, createAppBridge, type AppBridgeError, type AppCspRecord, type AppBridgeOptions, type AppHostHandlers, type AppServerAccess, type AppShowOptions, type AppTool } from './bridge.js';
export { sandboxProxyHtml, sandboxProxyHeaders } from './sandbox-proxy.js';
export { appBridgeMachine, DEFAULT_APP_LOAD_TIMEOUT_MS, DEFAULT_APP_TEARDOWN_TIMEOUT_MS, type AppBridgeContext, type AppBridgeEvent, type AppBridgeInput } from '../../machines/app-bridge.machine.js';
export {
  APPS_EXTENSION,
  APP_MIME_TYPE,
  APPS_PROTOCOL_VERSION,
  appsCapability,
  appContentSecurityPolicy,
  appToolMeta,
  clientRendersApps,
  type AppCsp,
  type AppPermissions,
  type AppResourceMeta,
  type AppToolMeta,
  type AppToolVisibility,
} from '../protocol/apps-extension.js';
