/**
 * The multi-server host: one isolated client per configured MCP server, restarted with backoff
 * when it crashes, with every server's tools, resources and prompts in one namespaced view.
 *
 * ```ts
 * const host = createHost({ servers: { files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] } } });
 * await host.start();
 * host.tools$.subscribe((tools) => console.log(tools.map((t) => t.name))); // files__read_file, ...
 * await host.callTool('files__read_file', { path: 'README.md' });
 * await host.close();
 * ```
 */
export {
  type HttpServerConfig,
  type ResolvedServerConfig,
  resolveServerConfig,
  type ServerConfig,
  serverEntries,
  type ServersConfig,
  type StdioServerConfig,
} from '../host/config.js';
export {
  createHost,
  DEFAULT_HOST_CLIENT_INFO,
  DEFAULT_NAMESPACE_SEPARATOR,
  Host,
  type HostAppServer,
  type HostOptions,
  type HostPrompt,
  type HostResource,
  type HostServerPhase,
  type HostServerState,
  type HostSession,
  type HostSkill,
  type HostState,
  type HostStderrLine,
  type HostTool,
  type RestartOptions,
  ServerUnavailableError,
} from '../host/host.js';
export { AppViewError, readAppView, visibleToModel, type AppView } from '../host/app-view.js';
export { DEFAULT_SKILL_CACHE_BYTES, SkillCache, type SkillCacheStats } from '../host/skill-cache.js';
export { createGateway, DEFAULT_MAX_SESSION_UPSTREAMS, type Gateway, type GatewayOptions, type UpstreamSharing } from '../gateway/gateway.js';
export type { NameFunction, NameRules, ServerView, UriRules } from '../gateway/server-views.js';
export {
  DEFAULT_RESTART_OPTIONS,
  hostServerMachine,
  restartDelay,
  type HostServerContext,
  type HostServerEvent,
  type HostServerInput,
} from '../../machines/host-server.machine.js';
// What a host's calls reject with besides ServerUnavailableError (the clients' errors).
export {
  CapabilityError,
  ConnectionClosedError,
  McpError,
  PhaseError,
  RequestCancelledError,
  RequestTimeoutError,
  ResourceNotFoundError,
  TransportError,
  UpstreamFaultError,
  VersionMismatchError,
} from '../errors.js';
export type { UpstreamFault } from '../errors.js';
