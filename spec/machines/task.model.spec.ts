/**
 * Model-based test: `applyTaskEvent` (lib/tasks/task-record.ts) executes `taskMachine` on a plain
 * record; this spec walks the machine's graph with `@xstate/graph` (every event in every state,
 * up to five events deep) and checks, step by step, that the machine (`transition()`, the very
 * definition exported to Stately) and the record agree on the status, the stamped fields, the
 * outcome and the effects named.
 */
import { expect } from 'chai';
import { getSimplePaths } from '@xstate/graph';
import { fromTransition, initialTransition, transition, type SnapshotFrom } from 'xstate';
import { applyTaskEvent, type TaskEffect, type TaskRecord } from '../../lib/tasks/task-record.js';
import { taskMachine, type TaskMachineEvent, type TaskMachineInput } from '../../machines/task.machine.js';

type MachineSnapshot = SnapshotFrom<typeof taskMachine>;
type ModelEventType = TaskMachineEvent['type'];
interface ModelState {
  machine: MachineSnapshot;
  record: TaskRecord | undefined;
  effects: { machine: string[]; record: TaskEffect[] | 'ignored' };
  depth: number;
}

const EFFECTS = new Set(['notifyStatus', 'abortExecution', 'settle', 'purge']);
const TYPES: ModelEventType[] = ['STATUS', 'INPUT_REQUIRED', 'INPUT_RECEIVED', 'COMPLETE', 'FAIL', 'CANCEL', 'TTL_EXPIRED'];
const MAX_DEPTH = 5;
const INPUT: TaskMachineInput = { taskId: 't-1', now: 1_000, ttl: 60_000, pollInterval: 500, statusMessage: 'Started' };

function eventOf(type: ModelEventType, depth: number): TaskMachineEvent {
  const now = 1_000 + depth * 100;
  switch (type) {
    case 'STATUS':
      return { type, now, message: `step ${depth}`, pollInterval: 250 * depth };
    case 'INPUT_REQUIRED':
      return { type, now, message: 'Waiting for the user', inputRequests: { [`elicitation-${depth}`]: { method: 'elicitation/create' } } };
    case 'INPUT_RECEIVED':
      return { type, now };
    case 'COMPLETE':
      return { type, now, outcome: { result: { content: [], n: depth } } };
    case 'FAIL':
      return { type, now, outcome: { error: { code: -32603, message: 'boom' } }, message: 'Failed' };
    case 'CANCEL':
      return { type, now, message: 'Cancelled by request' };
    case 'TTL_EXPIRED':
      return { type };
  }
}

function named(actions: readonly { type: string }[]): string[] {
  return actions.map((a) => a.type).filter((t) => EFFECTS.has(t));
}

function statusOf(s: MachineSnapshot): string {
  const v = s.value;
  return typeof v === 'string' ? v : Object.values(v)[0]!;
}

function modelLogic() {
  const [machine, actions] = initialTransition(taskMachine, INPUT);
  const record: TaskRecord = {
    taskId: INPUT.taskId,
    owner: 'session:1',
    method: 'tools/call',
    status: 'working',
    createdAt: INPUT.now,
    lastUpdatedAt: INPUT.now,
    ttl: INPUT.ttl,
    pollInterval: INPUT.pollInterval!,
    statusMessage: INPUT.statusMessage!,
    seq: 1,
  };
  const initial: ModelState = { machine, record, effects: { machine: named(actions), record: [] }, depth: 0 };
  return fromTransition((state: ModelState, event: { type: ModelEventType }): ModelState => {
    const e = eventOf(event.type, state.depth + 1);
    const [next, acts] = transition(taskMachine, state.machine, e);
    const applied = state.record ? applyTaskEvent(state.record, e) : undefined;
    return {
      machine: next,
      record: applied ? applied.record : state.record,
      effects: { machine: named(acts), record: applied ? applied.effects : 'ignored' },
      depth: state.depth + 1,
    };
  }, initial);
}

describe('task machine ⇔ task record (model-based)', () => {
  const paths = getSimplePaths(modelLogic(), {
    events: (snapshot) => (snapshot.context.depth >= MAX_DEPTH || snapshot.context.machine.status === 'done' ? [] : TYPES.map((type) => ({ type }))),
    serializeState: (snapshot) => {
      const s = snapshot.context;
      return JSON.stringify([s.machine.value, s.depth, s.machine.context.lastUpdatedAt, s.machine.context.statusMessage, s.effects.machine]);
    },
  });

  it('covers every status and every event', () => {
    const statuses = new Set(paths.flatMap((p) => p.steps.map((s) => statusOf(s.state.context.machine))));
    expect([...statuses].sort()).to.deep.equal(['cancelled', 'completed', 'expired', 'failed', 'input_required', 'working']);
    expect(paths.length).to.be.greaterThan(1000);
  });

  it('the TTL timer is the machine\'s: started at creation with the task\'s ttl', () => {
    const [, actions] = initialTransition(taskMachine, INPUT);
    const raise = actions.find((a) => a.type === 'xstate.raise') as { params?: { delay?: number; id?: string } } | undefined;
    expect(raise?.params).to.include({ delay: INPUT.ttl, id: 'ttl' });
    const [, none] = initialTransition(taskMachine, { ...INPUT, ttl: null });
    expect(none.some((a) => a.type === 'xstate.raise')).to.equal(false);
  });

  it('[TASK-021] [TASK-022] [TASK-023] agrees on every path: status, stamps, outcome, input requests, effects; terminal statuses never change', () => {
    for (const path of paths) {
      const trail: string[] = [];
      let terminal: string | undefined;
      for (const [i, step] of path.steps.entries()) {
        const s = step.state.context;
        if (i > 0) trail.push(step.event.type);
        const where = trail.join(' → ') || '(start)';
        const status = statusOf(s.machine);
        if (status === 'expired') {
          expect(s.record, `${where}: purged`).to.equal(undefined);
          expect(s.effects.record, where).to.deep.equal(['abortExecution', 'purge']);
          expect(s.effects.machine, where).to.deep.equal(['abortExecution', 'purge']);
          continue;
        }
        const r = s.record!;
        expect(r.status, `${where}: status`).to.equal(status);
        const c = s.machine.context;
        expect(r.lastUpdatedAt, `${where}: lastUpdatedAt`).to.equal(c.lastUpdatedAt);
        expect(r.statusMessage, `${where}: statusMessage`).to.equal(c.statusMessage);
        expect(r.pollInterval, `${where}: pollInterval`).to.equal(c.pollInterval);
        expect(r.outcome, `${where}: outcome`).to.deep.equal(c.outcome);
        expect(r.inputRequests, `${where}: inputRequests`).to.deep.equal(c.inputRequests);
        if (i > 0) {
          const expected = s.effects.machine;
          expect(s.effects.record === 'ignored' ? [] : s.effects.record, `${where}: effects`).to.deep.equal(expected);
        }
        if (terminal) expect(status, `${where}: a terminal status never changes`).to.equal(terminal);
        if (s.machine.hasTag('terminal')) terminal = status;
      }
    }
  });
});
