/**
 * Tasks as actors, for an inspector only. A task's life is decided by its store
 * (`applyTaskEvent` on a record, see `task-record.ts`): without an inspector there is no actor
 * per task. With one, each task created by an inspected request gets an actor of
 * `machines/task.machine.ts` parented to that request's actor, driven by the store's changes,
 * so the inspector draws it under its request and sees it go working → input_required →
 * completed | failed | cancelled (or expired, when the store purges it).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#task-status-lifecycle
 */
import { createActor, type Actor, type AnyActorRef } from 'xstate';
import { taskMachine, type TaskMachineEvent } from '../../machines/task.machine.js';
import type { RequestHandlerContext } from '../session/session.js';
import { isTerminal, type TaskRecord } from './task-record.js';
import type { TaskChange } from './task-store.js';

/** With an inspector, the actor a task is parented to: its request's, else its session's; none without one. */
export function taskParentOf(ctx: RequestHandlerContext): AnyActorRef | undefined {
  return ctx.request?.inspectActor ?? ctx.session.inspectActor;
}

/** The inspected tasks of one server's task service, by task id. */
export class TaskActors {
  private readonly actors = new Map<string, Actor<typeof taskMachine>>();

  /** A task was created; with a parent (an inspector is attached) it becomes an actor. */
  created(record: TaskRecord, parent: AnyActorRef | undefined): void {
    if (parent === undefined) return;
    // The store runs the TTL (ttl null here): the actor's own timer would hold the process open.
    const actor = createActor(taskMachine, {
      parent,
      id: `task:${record.taskId}`,
      input: { taskId: record.taskId, now: record.createdAt, ttl: null, ...(record.pollInterval !== undefined && { pollInterval: record.pollInterval }), ...(record.statusMessage !== undefined && { statusMessage: record.statusMessage }) },
    });
    actor.start();
    this.actors.set(record.taskId, actor);
  }

  /** The store changed a task: its actor takes the matching event. */
  changed(change: TaskChange): void {
    if (this.actors.size === 0) return;
    const actor = this.actors.get(change.taskId);
    if (actor === undefined) return;
    const record = change.record;
    const event = record === undefined ? ({ type: 'TTL_EXPIRED' } as const) : eventFor(record, actor.getSnapshot().matches({ live: 'input_required' }));
    if (event !== undefined) actor.send(event);
    if (record === undefined || isTerminal(record.status)) this.actors.delete(change.taskId);
  }
}

/** The event that brings a task's actor to the record's status. */
function eventFor(record: TaskRecord, waiting: boolean): TaskMachineEvent | undefined {
  const now = record.lastUpdatedAt;
  const message = record.statusMessage;
  switch (record.status) {
    case 'working':
      return waiting ? { type: 'INPUT_RECEIVED', now, ...(message !== undefined && { message }) } : { type: 'STATUS', now, ...(message !== undefined && { message }) };
    case 'input_required':
      return { type: 'INPUT_REQUIRED', now, ...(message !== undefined && { message }), ...(record.inputRequests !== undefined && { inputRequests: record.inputRequests }) };
    case 'completed':
      return record.outcome ? { type: 'COMPLETE', now, outcome: record.outcome } : undefined;
    case 'failed':
      return record.outcome ? { type: 'FAIL', now, outcome: record.outcome } : undefined;
    case 'cancelled':
      return { type: 'CANCEL', now, ...(message !== undefined && { message }) };
  }
}
