/**
 * The options of a {@link Client} and the warnings it reports.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
 */
import type { PeerInfo } from '../machines/session.machine.js';
import type { ToolCallApprover } from './client-features/tool-approval.js';
import type { TaskJournal } from './client-features/task-journal.js';
import type { EraCache } from './client-modern/era-cache.js';
import type { ListenBackoff } from './client-modern/listen-stream.js';
import type { LoggingLevel } from './protocol/schema/logging.js';
import type { SessionOptions } from './session/session.js';

/**
 * Options of `createClient`: `info` (the client's name and version, sent in `initialize`),
 * the session's (`supportedVersions`, `journal`, `clock`, default request `timeout`,
 * `inspect`...) and the client's own below.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization
 */
export interface ClientOptions extends SessionOptions {
  /**
   * Quiet time in ms after a `list_changed` notification before `tools$`, `resources$` or
   * `prompts$` re-list (a burst of notifications is one re-list). Default 50.
   */
  listChangedDebounceMs?: number;
  /**
   * Asked before every `tools/call` goes out, with the server, the tool, its annotations and the
   * exact arguments (the application's confirmation prompt). A refusal rejects the call with
   * `ToolCallDeniedError` and nothing is sent. Off by default (costs nothing when absent).
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#user-interaction-model
   */
  approveToolCall?: ToolCallApprover;
  /**
   * The application trusts this server: its tool annotations are given to `approveToolCall` as
   * trusted. Default false (annotations are untrusted hints).
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool
   */
  trustedServer?: boolean;
  /**
   * Applied to tool arguments before they go into a `toolCalls$` audit record. Default: values of
   * secret-named keys (password, token, api key...) become "[REDACTED]"; `false` keeps them.
   */
  redactToolArguments?: ((args: unknown) => unknown) | false;
  /**
   * Which era to speak: 'auto' (default) offers 2026-07-28 first and falls back to `initialize`
   * for a legacy server; 'legacy' runs `initialize` at once (no probe); 'modern' never falls back.
   * With a transport that says it is `legacyOnly` (HTTP+SSE, a cassette) the default is 'legacy'.
   * A `journal` records either era (a 2026-07-28 client at the request level).
   * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
   */
  era?: 'auto' | 'legacy' | 'modern';
  /**
   * Where the tasks this client starts are written down until it sees them end, so that after a
   * crash or restart `client.unfinishedTasks()` lists them and `client.task(id)` follows them on
   * (`fileTaskJournal(path)` in node, `memoryTaskJournal()`, or your own). One journal per server.
   * Off by default.
   * @see https://modelcontextprotocol.io/extensions/tasks#task-polling
   */
  taskJournal?: TaskJournal;
  /**
   * HTTP, era 'auto': what the probe found for an endpoint URL is remembered, so a later client
   * to the same endpoint in this process does not probe again (a session-era server gets
   * `initialize` at once; a modern one is asked `server/discover` as always, which it answers).
   * An endpoint whose remembered `initialize` fails is forgotten: the next connect probes.
   * Default: one cache for the process (`sharedEraCache`); `false` probes every time; any
   * `EraCache` can stand in (one that persists, say).
   * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#backward-compatibility-with-initialization-based-versions
   */
  eraCache?: EraCache | false;
  /**
   * stdio (and other byte streams): how long the era probe waits when the server answers neither
   * `server/discover` nor the `ping` after it, before deciding it is legacy, in ms (default
   * 30,000). Every server that answers either is known as soon as it does: modern by its
   * discover result, legacy by an error or by answering the ping alone. The wait counts the
   * server's start-up (an `npx` download, an interpreter loading), so it is long; only a server
   * that ignores both requests ever waits it out.
   */
  probeTimeoutMs?: number;
  /** How a `subscriptions/listen` the server ends or that breaks is reopened (defaults: 1 s → 30 s, ×2, jitter 0.5). */
  listenBackoff?: Partial<ListenBackoff>;
  /** Source of the reopening jitter, in [0, 1). Default Math.random. */
  random?: () => number;
  /** Input-required rounds one modern request may go through before failing (default 8). */
  maxInputRounds?: number;
  /**
   * Ask for log messages at this level and above: in the modern era each request carries it as
   * `io.modelcontextprotocol/logLevel` (set later with `setLoggingLevel`).
   */
  logLevel?: LoggingLevel;
}

/** Something the client handled without failing, that a host may want to know. */
export interface ClientWarning {
  /**
   * `legacy-era`: era 'auto' found a server of the session era and connected through `initialize`;
   * the message says what the probe got (so an unexpected fallback can be told from a legacy server).
   * `listen-narrowed`: a 2026-07-28 server acknowledged `subscriptions/listen` without some of the
   * notifications asked for (named in the message; `detail` is what it honoured): those never come.
   * `log-level-lost`: the server lost the session, the transport started a new one, and setting
   * the log level again on it failed (log messages come at the server's default level).
   * `task-journal`: the `taskJournal` failed to write or remove an entry (`detail` is the error);
   * the task itself goes on.
   */
  kind: 'relist-failed' | 'invalid-tool' | 'invalid-roots' | 'inaccessible-root' | 'unknown-elicitation' | 'unknown-schema-dialect' | 'unsubscribe-failed' | 'log-level-lost' | 'legacy-era' | 'listen-narrowed' | 'task-journal';
  message: string;
  detail?: unknown;
}

/** Our options carry `info`; the SDK's first argument is the info itself. */
export function clientOptions(first: ClientOptions | PeerInfo, rest: Omit<ClientOptions, 'info'> | undefined): ClientOptions {
  const info = (first as { info?: unknown }).info;
  return typeof info === 'object' && info !== null ? (first as ClientOptions) : { ...rest, info: first as PeerInfo };
}
