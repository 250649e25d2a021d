/**
 * The one table of MCP methods: request or notification, who may send it, which declared
 * capability it needs, and the revision it first appeared in.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#capability-negotiation
 */
import { allows, isAtLeast, isModernRevision, type Feature, type Revision } from './revisions.js';
import type { McpMethod, NotificationMethod, RequestMethod } from './schema/messages.js';

/**
 * Request (expects a response) or notification (does not).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#messages
 */
export type MethodKind = 'request' | 'notification';

/**
 * One side of a session.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#capability-negotiation
 */
export type Party = 'client' | 'server';

/**
 * Who may send a method.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#capability-negotiation
 */
export type MethodSender = Party | 'both';

/**
 * A capability a method needs, as a path into a capabilities object
 * (`['resources', 'subscribe']` means `capabilities.resources.subscribe`).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#capability-negotiation
 */
export type CapabilityRequirement = {
  /**
   * Whose declared capabilities hold it. `receiver`: the peer must have declared it to be
   * sent the method (requests, and notifications the receiver opted into). `sender`: the
   * sender must have declared it before sending (e.g. `*_list_changed`).
   */
  of: 'receiver' | 'sender';
  path: readonly string[];
  /**
   * The requirement applies only in revisions with this feature (the capability did not
   * exist before). Absent: applies in every revision that has the method.
   */
  feature?: Feature;
};

/**
 * One row of the method table.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#capability-negotiation
 */
export type MethodInfo = {
  method: McpMethod;
  kind: MethodKind;
  sender: MethodSender;
  capability?: CapabilityRequirement;
  /** The first revision with this method. */
  since: Revision;
};

type Row = Omit<MethodInfo, 'method'>;

const recv = (path: string[], feature?: Feature): CapabilityRequirement =>
  feature ? { of: 'receiver', path, feature } : { of: 'receiver', path };
const send = (path: string[]): CapabilityRequirement => ({ of: 'sender', path });

// Typed by McpMethod, so a method added to the schema without a row here fails to compile.
const TABLE: { readonly [M in McpMethod]: Row } = {
  // Lifecycle and utilities: no capability.
  initialize: { kind: 'request', sender: 'client', since: '2024-11-05' },
  'notifications/initialized': { kind: 'notification', sender: 'client', since: '2024-11-05' },
  ping: { kind: 'request', sender: 'both', since: '2024-11-05' },
  'notifications/progress': { kind: 'notification', sender: 'both', since: '2024-11-05' },
  'notifications/cancelled': { kind: 'notification', sender: 'both', since: '2024-11-05' },

  // Server features: the server (receiver of the requests) declares them.
  'tools/list': { kind: 'request', sender: 'client', capability: recv(['tools']), since: '2024-11-05' },
  'tools/call': { kind: 'request', sender: 'client', capability: recv(['tools']), since: '2024-11-05' },
  'notifications/tools/list_changed': {
    kind: 'notification',
    sender: 'server',
    capability: send(['tools', 'listChanged']),
    since: '2024-11-05',
  },
  'resources/list': { kind: 'request', sender: 'client', capability: recv(['resources']), since: '2024-11-05' },
  'resources/templates/list': {
    kind: 'request',
    sender: 'client',
    capability: recv(['resources']),
    since: '2024-11-05',
  },
  'resources/read': { kind: 'request', sender: 'client', capability: recv(['resources']), since: '2024-11-05' },
  'resources/subscribe': {
    kind: 'request',
    sender: 'client',
    capability: recv(['resources', 'subscribe']),
    since: '2024-11-05',
  },
  'resources/unsubscribe': {
    kind: 'request',
    sender: 'client',
    capability: recv(['resources', 'subscribe']),
    since: '2024-11-05',
  },
  'notifications/resources/updated': {
    kind: 'notification',
    sender: 'server',
    capability: send(['resources', 'subscribe']),
    since: '2024-11-05',
  },
  'notifications/resources/list_changed': {
    kind: 'notification',
    sender: 'server',
    capability: send(['resources', 'listChanged']),
    since: '2024-11-05',
  },
  'prompts/list': { kind: 'request', sender: 'client', capability: recv(['prompts']), since: '2024-11-05' },
  'prompts/get': { kind: 'request', sender: 'client', capability: recv(['prompts']), since: '2024-11-05' },
  'notifications/prompts/list_changed': {
    kind: 'notification',
    sender: 'server',
    capability: send(['prompts', 'listChanged']),
    since: '2024-11-05',
  },
  // Completion existed in 2024-11-05 without a capability; `completions` arrived in 2025-03-26.
  'completion/complete': {
    kind: 'request',
    sender: 'client',
    capability: recv(['completions'], 'completionsCapability'),
    since: '2024-11-05',
  },
  'logging/setLevel': { kind: 'request', sender: 'client', capability: recv(['logging']), since: '2024-11-05' },
  'notifications/message': {
    kind: 'notification',
    sender: 'server',
    capability: send(['logging']),
    since: '2024-11-05',
  },

  // Client features: the client (receiver of the requests) declares them.
  'sampling/createMessage': {
    kind: 'request',
    sender: 'server',
    capability: recv(['sampling']),
    since: '2024-11-05',
  },
  'roots/list': { kind: 'request', sender: 'server', capability: recv(['roots']), since: '2024-11-05' },
  'notifications/roots/list_changed': {
    kind: 'notification',
    sender: 'client',
    capability: send(['roots', 'listChanged']),
    since: '2024-11-05',
  },
  'elicitation/create': {
    kind: 'request',
    sender: 'server',
    capability: recv(['elicitation']),
    since: '2025-06-18',
  },
  // Only URL-mode elicitations complete out of band, so the client must have declared URL mode.
  'notifications/elicitation/complete': {
    kind: 'notification',
    sender: 'server',
    capability: recv(['elicitation', 'url']),
    since: '2025-11-25',
  },

  // Tasks: either side may be the receiver that runs tasks.
  'tasks/get': { kind: 'request', sender: 'both', capability: recv(['tasks']), since: '2025-11-25' },
  'tasks/result': { kind: 'request', sender: 'both', capability: recv(['tasks']), since: '2025-11-25' },
  'tasks/list': { kind: 'request', sender: 'both', capability: recv(['tasks', 'list']), since: '2025-11-25' },
  'tasks/cancel': { kind: 'request', sender: 'both', capability: recv(['tasks', 'cancel']), since: '2025-11-25' },
  'notifications/tasks/status': {
    kind: 'notification',
    sender: 'both',
    capability: send(['tasks']),
    since: '2025-11-25',
  },
};

/**
 * Every method this runtime knows, in table order.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
export const METHODS = Object.keys(TABLE) as McpMethod[];

/**
 * True when `method` is a method of the table (any revision).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
export function isKnownMethod(method: string): method is McpMethod {
  return Object.prototype.hasOwnProperty.call(TABLE, method);
}

/**
 * The table row of `method`, or undefined for a method MCP does not define.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
export function methodInfo(method: string): MethodInfo | undefined {
  return isKnownMethod(method) ? { method, ...TABLE[method] } : undefined;
}

/**
 * The capability path `method` needs, or undefined when it needs none. With `revision`, a
 * requirement whose capability that revision lacks (`completions` in 2024-11-05) is
 * dropped. Whose capabilities to look in: `methodInfo(method).capability.of`.
 *
 * Some requests need more depending on their params, which this table does not see:
 * URL-mode `elicitation/create` needs `elicitation.url` (see {@link supportsElicitationMode}),
 * sampling with `tools` needs `sampling.tools`, a `task` param needs `tasks.requests.…`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#capability-negotiation
 */
export function requiredCapability(method: string, revision?: Revision): string[] | undefined {
  const cap = isKnownMethod(method) ? TABLE[method].capability : undefined;
  if (!cap) return undefined;
  if (revision && cap.feature && !allows(revision, cap.feature)) return undefined;
  return [...cap.path];
}

/**
 * Whether `capabilities` declares the capability at `path`. A key counts when present with
 * any value other than `undefined`, `null` or `false` (so `{}` and `true` count). The empty
 * path asks whether a capabilities object exists at all.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#capability-negotiation
 */
export function hasCapability(capabilities: object | undefined, path: readonly string[]): boolean {
  let node: unknown = capabilities;
  if (node === undefined || node === null || typeof node !== 'object') return false;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, key)) {
      return false;
    }
    node = (node as Record<string, unknown>)[key];
    if (node === undefined || node === null || node === false) return false;
  }
  return true;
}

/**
 * Whether the declared capabilities let `sender` send `method`: looks up the requirement
 * in the receiver's or the sender's capabilities as the table says. Methods without a
 * requirement are always permitted here (phase and revision are checked elsewhere).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#capability-negotiation
 */
export function capabilitiesPermit(
  method: string,
  sender: Party,
  capabilities: { client?: object; server?: object },
  revision?: Revision,
): boolean {
  const path = requiredCapability(method, revision);
  if (!path || !isKnownMethod(method)) return true;
  const receiver: Party = sender === 'client' ? 'server' : 'client';
  const holder = TABLE[method].capability?.of === 'sender' ? sender : receiver;
  return hasCapability(capabilities[holder], path);
}

/**
 * Whether `party` may send `method` at all (ignoring capabilities).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
export function maySend(method: string, party: Party): boolean {
  const info = isKnownMethod(method) ? TABLE[method] : undefined;
  return info !== undefined && (info.sender === 'both' || info.sender === party);
}

/**
 * Whether `method` exists in `revision`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
export function isMethodInRevision(method: string, revision: Revision): boolean {
  if (isModernRevision(revision) && REMOVED_IN_MODERN.has(method)) return false;
  return isKnownMethod(method) && isAtLeast(revision, TABLE[method].since);
}

/**
 * Methods of the session era that 2026-07-28 removed (its changelog), answered -32601 there.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/changelog
 */
export const REMOVED_IN_MODERN: ReadonlySet<string> = new Set([
  'initialize',
  'notifications/initialized',
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
  'notifications/roots/list_changed',
  'notifications/elicitation/complete',
  'tasks/get',
  'tasks/result',
  'tasks/list',
  'tasks/cancel',
  'notifications/tasks/status',
  'sampling/createMessage',
  'elicitation/create',
  'roots/list',
]);

/**
 * The requests a client may send in 2026-07-28 (the schema's `ClientRequest`); a server may add
 * extension methods beside them.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/schema
 */
export const MODERN_CLIENT_REQUESTS: ReadonlySet<string> = new Set([
  'server/discover',
  'completion/complete',
  'prompts/get',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'subscriptions/listen',
  'tools/call',
  'tools/list',
]);

/**
 * Whether `method` is a notification name: every MCP notification, and only those, is
 * named `notifications/…`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#notifications
 */
export function isNotificationMethod(method: string): boolean {
  return method.startsWith('notifications/');
}

/**
 * Narrows a known method to a request method.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#messages
 */
export function isRequestMethod(method: string): method is RequestMethod {
  return isKnownMethod(method) && TABLE[method].kind === 'request';
}

/**
 * Narrows a known method to a notification method of the table.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#notifications
 */
export function isKnownNotificationMethod(method: string): method is NotificationMethod {
  return isKnownMethod(method) && TABLE[method].kind === 'notification';
}

/**
 * Whether a client with these capabilities accepts an elicitation in `mode`. Before
 * 2025-11-25 there were no sub-capabilities and only form mode; from 2025-11-25 an
 * `elicitation` object without `form` or `url` still means form only.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#capabilities
 */
export function supportsElicitationMode(
  clientCapabilities: object | undefined,
  mode: 'form' | 'url',
  revision?: Revision,
): boolean {
  if (!hasCapability(clientCapabilities, ['elicitation'])) return false;
  if (revision && !allows(revision, mode === 'url' ? 'elicitationUrl' : 'elicitationForm')) return false;
  // Without sub-capabilities (before 2025-11-25) the bare capability is form mode.
  if (revision && !allows(revision, 'elicitationModeCapabilities')) return mode === 'form';
  const hasForm = hasCapability(clientCapabilities, ['elicitation', 'form']);
  const hasUrl = hasCapability(clientCapabilities, ['elicitation', 'url']);
  if (mode === 'url') return hasUrl;
  return hasForm || !hasUrl;
}
