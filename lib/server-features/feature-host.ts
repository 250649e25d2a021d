/**
 * What the server features (tools, prompts, completion) need from the `McpServer` that hosts
 * them.
 */
import type { Clock } from '../clock.js';
import type { Server } from '../server.js';
import type { ServerDiagnostics } from './diagnostics.js';
import type { ListKind } from './list-changed.js';
import type { LoggingFeature } from './logging.js';
import type { RateLimiter } from './rate-limit.js';
import type { ServerTasks } from '../tasks/server-tasks.js';

export interface FeatureHost {
  readonly server: Server;
  /** The clock list_changed debouncing runs on. */
  readonly clock: Clock;
  /** Items per page of every list. */
  readonly pageSize: number;
  /** Quiet time before a list_changed notification goes out. */
  readonly listChangedDebounceMs: number;
  readonly logging: LoggingFeature;
  /** Advice reported once per server (see `diagnostics.ts`). */
  readonly diagnostics: ServerDiagnostics;
  /** Per-session limits, where configured. */
  readonly rateLimits: { readonly toolCalls?: RateLimiter; readonly completions?: RateLimiter };
  /**
   * Declare capabilities for sessions that have not initialized yet: every session that
   * connects from now on, and connected ones still waiting for `initialize`. Sessions already
   * initialized keep what they were told.
   */
  declareCapabilities(capabilities: Record<string, unknown>): void;
  /** Tasks (2025-11-25): routes task-augmented tool calls; absent when the server has none. */
  readonly tasks?: ServerTasks;
  /** Whether the `listChanged` flag is declared for `kind` (true unless the options turn it off). */
  listChanged(kind: ListKind): boolean;
}
