/**
 * Executes `machines/task.machine.ts` on a plain, serialisable record, without an actor per
 * task: a store (in memory, or Redis later) keeps records and applies events with
 * {@link applyTaskEvent}. The transitions mirror the machine one for one (a model-based spec
 * walks the machine's graph and checks this function does the same), so the names below are the
 * machine's names.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#task-status-lifecycle
 */
import type { TaskMachineEvent, TaskOutcome, TaskStatusName } from '../../machines/task.machine.js';

export type { TaskMachineEvent, TaskOutcome, TaskStatusName };

/** One task as a store keeps it. Timestamps are ms since the epoch on the session clock. */
export interface TaskRecord {
  readonly taskId: string;
  /** Who may see and cancel it: `sub:<subject>` of the authorization, else `session:<id>`. */
  readonly owner: string;
  /** The request the task runs (`tools/call`). */
  readonly method: string;
  readonly status: TaskStatusName;
  readonly createdAt: number;
  readonly lastUpdatedAt: number;
  /** Lifetime from creation in ms; `null` for unlimited. */
  readonly ttl: number | null;
  readonly pollInterval?: number;
  readonly statusMessage?: string;
  /** Set once the task is terminal (not for `cancelled`). */
  readonly outcome?: TaskOutcome;
  /**
   * While `input_required`: every input request outstanding, by key, as the extension's
   * `tasks/get` shows them (kept in the store so any process can answer it).
   */
  readonly inputRequests?: Record<string, unknown>;
  /** Insertion order, for `tasks/list` cursors. */
  readonly seq: number;
}

/** The machine's effects, by name. */
export type TaskEffect = 'notifyStatus' | 'abortExecution' | 'settle' | 'purge';

/** What applying an event did. `record` is undefined when the task expired (purged). */
export interface TaskTransition {
  record: TaskRecord | undefined;
  effects: TaskEffect[];
}

const TERMINAL: ReadonlySet<TaskStatusName> = new Set(['completed', 'failed', 'cancelled']);

/** Whether `status` is terminal: it never changes again. */
export function isTerminal(status: TaskStatusName): boolean {
  return TERMINAL.has(status);
}

/**
 * Apply one machine event to a record. Returns undefined when the machine ignores the event in
 * that state (a terminal task, input received while working, ...).
 */
export function applyTaskEvent(record: TaskRecord, event: TaskMachineEvent): TaskTransition | undefined {
  if (event.type === 'TTL_EXPIRED') return { record: undefined, effects: ['abortExecution', 'purge'] };
  if (isTerminal(record.status)) return undefined;
  const message = event.message !== undefined ? { statusMessage: event.message } : {};
  switch (event.type) {
    case 'STATUS': {
      const poll = event.pollInterval !== undefined ? { pollInterval: event.pollInterval } : {};
      return { record: { ...record, lastUpdatedAt: event.now, ...message, ...poll }, effects: ['notifyStatus'] };
    }
    case 'INPUT_REQUIRED': {
      // From working, or again while waiting when what is outstanding changed.
      const requests = event.inputRequests !== undefined ? { inputRequests: event.inputRequests } : {};
      return { record: { ...withoutInputRequests(record), status: 'input_required', lastUpdatedAt: event.now, ...message, ...requests }, effects: ['notifyStatus'] };
    }
    case 'INPUT_RECEIVED':
      if (record.status !== 'input_required') return undefined;
      return { record: { ...withoutInputRequests(record), status: 'working', lastUpdatedAt: event.now, ...message }, effects: ['notifyStatus'] };
    case 'COMPLETE':
    case 'FAIL':
      return {
        record: { ...withoutInputRequests(record), status: event.type === 'COMPLETE' ? 'completed' : 'failed', lastUpdatedAt: event.now, ...message, outcome: event.outcome },
        effects: ['notifyStatus', 'settle'],
      };
    case 'CANCEL':
      return { record: { ...withoutInputRequests(record), status: 'cancelled', lastUpdatedAt: event.now, ...message }, effects: ['abortExecution', 'notifyStatus', 'settle'] };
  }
}

/** The record without its input requests (they exist only while `input_required`). */
function withoutInputRequests(record: TaskRecord): TaskRecord {
  if (record.inputRequests === undefined) return record;
  const { inputRequests: _, ...rest } = record;
  return rest;
}

/** When a record's TTL runs out (ms since the epoch), or undefined for unlimited. */
export function expiresAt(record: TaskRecord): number | undefined {
  return record.ttl === null ? undefined : record.createdAt + record.ttl;
}
