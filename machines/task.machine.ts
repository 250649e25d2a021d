/**
 * The one definition of a task's lifecycle, for both wire forms: the 2025-11-25 core tasks
 * (`tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`) and the 2026-07-28 extension
 * `io.modelcontextprotocol/tasks` (`resultType: "task"`, `tasks/get`, `tasks/update`,
 * `tasks/cancel`). The machine knows statuses, timestamps, the TTL and the poll-interval hint;
 * which wire form a task is shown in is an adapter's choice, as is which outcome counts as
 * `failed` (2025-11-25: a tool result with `isError`; the extension: only a JSON-RPC error).
 *
 * working ⇄ input_required → completed | failed | cancelled; terminal statuses never change
 * (events are ignored there, and an adapter answers `tasks/cancel` with -32602); the TTL timer
 * (`ttl`, from creation) ends any task in `expired`, where the store forgets it.
 *
 * Like `request.machine.ts`, it is not run as an actor per task: `lib/tasks/task-record.ts`
 * executes the same transitions on a plain record that a store can keep (in memory or in Redis),
 * and `spec/machines/task.model.spec.ts` walks this graph and checks the two agree.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#task-status-lifecycle
 */
import { assign, enqueueActions, setup } from 'xstate';

export interface TaskMachineInput {
  taskId: string;
  /** Creation time, ms since the epoch (the session clock's `now()`). */
  now: number;
  /** Lifetime from creation in ms; `null` for unlimited. */
  ttl: number | null;
  /** Suggested ms between two polls. */
  pollInterval?: number;
  statusMessage?: string;
}

/** How a task ended: a result of the underlying request, or its JSON-RPC error. */
export type TaskOutcome = { result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } };

export interface TaskMachineContext {
  taskId: string;
  createdAt: number;
  lastUpdatedAt: number;
  ttl: number | null;
  pollInterval: number | undefined;
  statusMessage: string | undefined;
  outcome: TaskOutcome | undefined;
  /** The input requests the task waits on, by key (the extension shows them in `tasks/get`); only in `input_required`. */
  inputRequests: Record<string, unknown> | undefined;
}

export type TaskMachineEvent =
  /** A new status message (and optionally a new poll-interval hint) while the task is live. */
  | { type: 'STATUS'; now: number; message?: string; pollInterval?: number }
  /**
   * The task needs input from the requestor (an elicitation or sampling request is waiting).
   * `inputRequests`: every request outstanding now, by key; sent again while waiting when the
   * outstanding set changes (a new ask, one of several answered).
   */
  | { type: 'INPUT_REQUIRED'; now: number; message?: string; inputRequests?: Record<string, unknown> }
  /** Every input arrived: back to work. */
  | { type: 'INPUT_RECEIVED'; now: number; message?: string }
  | { type: 'COMPLETE'; now: number; outcome: TaskOutcome; message?: string }
  | { type: 'FAIL'; now: number; outcome: TaskOutcome; message?: string }
  | { type: 'CANCEL'; now: number; message?: string }
  | { type: 'TTL_EXPIRED' };

type Stamped = Extract<TaskMachineEvent, { now: number }>;

const stamp = (event: TaskMachineEvent, context: TaskMachineContext) => {
  const e = event as Stamped;
  return {
    lastUpdatedAt: e.now,
    statusMessage: e.message !== undefined ? e.message : context.statusMessage,
  };
};

export const taskMachine = setup({
  types: {
    context: {} as TaskMachineContext,
    events: {} as TaskMachineEvent,
    input: {} as TaskMachineInput,
  },
  actions: {
    // Effects supplied by the runtime; the machine only names them.
    /** Tell the requestor the status changed (`notifications/tasks/status`, or the extension's). */
    notifyStatus: () => {},
    /** Stop the work behind the task (abort its handler's signal). */
    abortExecution: () => {},
    /** Wake whoever waits for the outcome (`tasks/result`, a blocked handle). */
    settle: () => {},
    /** Forget the task and its result. */
    purge: () => {},
    stamp: assign(({ context, event }) => stamp(event, context)),
    stampStatus: assign(({ context, event }) => {
      const e = event as Extract<TaskMachineEvent, { type: 'STATUS' }>;
      return { ...stamp(event, context), pollInterval: e.pollInterval ?? context.pollInterval };
    }),
    keepOutcome: assign(({ context, event }) => ({
      ...stamp(event, context),
      outcome: (event as Extract<TaskMachineEvent, { type: 'COMPLETE' | 'FAIL' }>).outcome,
    })),
    keepInputRequests: assign(({ event }) => ({ inputRequests: (event as Extract<TaskMachineEvent, { type: 'INPUT_REQUIRED' }>).inputRequests })),
    dropInputRequests: assign({ inputRequests: undefined }),
    startTtlTimer: enqueueActions(({ context, enqueue }) => {
      if (context.ttl !== null) enqueue.raise({ type: 'TTL_EXPIRED' }, { id: 'ttl', delay: context.ttl });
    }),
  },
}).createMachine({
  id: 'task',
  context: ({ input }) => ({
    taskId: input.taskId,
    createdAt: input.now,
    lastUpdatedAt: input.now,
    ttl: input.ttl,
    pollInterval: input.pollInterval,
    statusMessage: input.statusMessage,
    outcome: undefined,
    inputRequests: undefined,
  }),
  initial: 'live',
  entry: ['startTtlTimer'],
  on: {
    // Whatever the status: after its TTL a task may be deleted with its result.
    TTL_EXPIRED: { target: '.expired', actions: ['abortExecution', 'purge'] },
  },
  states: {
    live: {
      initial: 'working',
      on: {
        STATUS: { actions: ['stampStatus', 'notifyStatus'] },
        COMPLETE: { target: 'completed', actions: ['keepOutcome', 'dropInputRequests', 'notifyStatus', 'settle'] },
        FAIL: { target: 'failed', actions: ['keepOutcome', 'dropInputRequests', 'notifyStatus', 'settle'] },
        CANCEL: { target: 'cancelled', actions: ['stamp', 'dropInputRequests', 'abortExecution', 'notifyStatus', 'settle'] },
      },
      states: {
        working: {
          tags: ['live'],
          on: { INPUT_REQUIRED: { target: 'input_required', actions: ['stamp', 'keepInputRequests', 'notifyStatus'] } },
        },
        input_required: {
          tags: ['live'],
          on: {
            // What is outstanding changed while waiting: a new ask, or one of several answered.
            INPUT_REQUIRED: { actions: ['stamp', 'keepInputRequests', 'notifyStatus'] },
            INPUT_RECEIVED: { target: 'working', actions: ['stamp', 'dropInputRequests', 'notifyStatus'] },
          },
        },
      },
    },
    // Terminal: no event changes them; only the TTL ends them.
    completed: { tags: ['terminal'] },
    failed: { tags: ['terminal'] },
    cancelled: { tags: ['terminal'] },
    expired: { type: 'final' },
  },
});

/** The statuses a task shows on the wire. */
export type TaskStatusName = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
