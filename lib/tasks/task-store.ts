/**
 * Where tasks live: an asynchronous interface, so a store shared by several server processes
 * (Redis) can implement it as well as the in-memory one (`memory-task-store.ts`).
 *
 * A store owns the lifecycle rules: it applies events through the task machine's executor
 * (`applyTaskEvent`), expires tasks after their TTL, and answers lookups only to the identity
 * that created a task. Another identity's task id is answered exactly like an unknown one, so
 * task ids cannot be probed.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#task-isolation-and-access-control
 */
import type { Observable } from 'rxjs';
import type { JsonObject } from '../jsonrpc/message.js';
import type { TaskEffect, TaskMachineEvent, TaskRecord } from './task-record.js';

/** What a new task starts with. */
/** The limits every task store takes (the memory store and the Redis one). */
export interface TaskStoreLimits {
  /** Live (non-terminal) tasks per owner at most (default 100). */
  maxLivePerOwner?: number;
  /**
   * Live tasks of the callers nobody can tell apart (no authentication, and no session of their
   * own: a stateless server, or any 2026-07-28 request), all together, at most (default 1,000).
   * They share one owner, so a bound per owner would let one of them deny the others; this pool
   * is separate from the identified callers', so they cannot deny those either.
   */
  maxLiveUnidentified?: number;
  /** Lifetime when the requestor asks for none, ms (default 10 minutes). */
  defaultTtl?: number;
  /** The longest lifetime granted, ms (default 1 hour); longer requests are shortened. */
  maxTtl?: number;
  /** The poll interval suggested to requestors, ms (default 1,000). */
  pollInterval?: number;
  /** Tasks per `tasks/list` page (default 50). */
  pageSize?: number;
}

export interface NewTask {
  owner: string;
  method: string;
  /** Requested lifetime in ms (the store clamps it to its maximum); undefined for its default. */
  ttl?: number | undefined;
  pollInterval?: number | undefined;
  statusMessage?: string | undefined;
  /**
   * False when the owner stands for every caller nobody can tell apart: the task counts against
   * `maxLiveUnidentified` instead of `maxLivePerOwner`. Default true.
   */
  identified?: boolean | undefined;
}

/** A lookup: the task, or why there is none (`expired` only while the store still remembers it). */
export type TaskLookup = { found: TaskRecord } | { missing: 'not-found' | 'expired' };

/** One page of `tasks/list`. */
export interface TaskPage {
  tasks: TaskRecord[];
  nextCursor?: string;
}

/** A change a store made, with the machine's effects for whoever runs the work. */
export interface TaskChange {
  taskId: string;
  owner: string;
  /** Undefined when the task expired and was purged. */
  record: TaskRecord | undefined;
  effects: TaskEffect[];
}

/**
 * Answers to a task's input requests (the extension's `tasks/update`), on their way to the
 * process that runs the task: `tasks/update` may arrive at any process of a deployment.
 */
export interface TaskInput {
  taskId: string;
  /** Answers by input key, as the requestor sent them (the running task checks each). */
  responses: JsonObject;
}

/**
 * Which limit refused a task: the caller's own (`requestor`), the pool shared by callers nobody
 * can tell apart (`unidentified`), or the store's (`server`, every task held is still live).
 */
export type TaskLimitScope = 'requestor' | 'unidentified' | 'server';

/** Thrown by {@link TaskStore.create} when a limit is reached; the request fails, nothing else. */
export class TaskLimitError extends Error {
  override readonly name = 'TaskLimitError';
  constructor(
    message: string,
    readonly scope: TaskLimitScope = 'server',
    readonly limit?: number,
  ) {
    super(message);
  }

  /** The refusal for a new task of `init` by a store with these limits (both stores word it alike). */
  static forOwner(init: NewTask, maxLivePerOwner: number, maxLiveUnidentified: number): TaskLimitError {
    return init.identified === false
      ? new TaskLimitError(`Too many tasks in progress for unauthenticated callers (at most ${maxLiveUnidentified}, shared by all of them); authenticate to get a quota of your own, or try again when some finish`, 'unidentified', maxLiveUnidentified)
      : new TaskLimitError(`Too many tasks in progress for this requestor (at most ${maxLivePerOwner}); wait for one to finish or cancel one`, 'requestor', maxLivePerOwner);
  }

  /** The refusal when the store holds its maximum and every task is live. */
  static full(maxTasks: number): TaskLimitError {
    return new TaskLimitError(`The server holds its maximum of ${maxTasks} tasks, all still in progress; try again later`, 'server', maxTasks);
  }
}

/** The live-task bound that applies to the owner of `init`. */
export function liveLimitFor(init: NewTask, maxLivePerOwner: number, maxLiveUnidentified: number): number {
  return init.identified === false ? maxLiveUnidentified : maxLivePerOwner;
}

/** Thrown by {@link TaskStore.list} for a cursor the store did not issue. */
export class InvalidTaskCursorError extends Error {
  override readonly name = 'InvalidTaskCursorError';
}

export interface TaskStore {
  /** Create a task in `working`. Resolves once a `get` for it would find it. */
  create(init: NewTask): Promise<TaskRecord>;
  /** The task if it exists and belongs to `owner`. */
  get(taskId: string, owner: string): Promise<TaskLookup>;
  /**
   * Apply a machine event. With `owner`, only to that owner's task. Resolves with the change, or
   * undefined when the task is unknown (or not the owner's) or the machine ignored the event.
   */
  apply(taskId: string, event: TaskMachineEvent, owner?: string): Promise<TaskChange | undefined>;
  /** `owner`'s tasks, oldest first, a page at a time. Rejects with {@link InvalidTaskCursorError}. */
  list(owner: string, cursor?: string): Promise<TaskPage>;
  /**
   * Every change, as it is made (including expiries). A store shared by several processes
   * delivers every process's changes to every process.
   */
  readonly changes$: Observable<TaskChange>;
  /** Hand input responses to whichever process runs `taskId` (it hears them on {@link inputs$}). */
  sendInput(input: TaskInput): Promise<void>;
  /** Input responses sent with {@link sendInput}, from any process. */
  readonly inputs$: Observable<TaskInput>;
  /** Stop timers; the store keeps nothing afterwards. */
  close(): Promise<void>;
}
