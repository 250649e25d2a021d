/**
 * Model-based test: `RequestRegistry` executes `requestMachine` by hand; this spec walks the
 * machine's graph with `@xstate/graph` and checks, step by step, that a real actor of the machine
 * and the registry agree on the state, on `notifications/cancelled`, and on how the promise ends.
 *
 * The graph is that of the machine plus a timeline: a model state is the machine snapshot, the
 * time, the machine's pending delayed events (read from the actions `transition()` returns, so the
 * timers are the machine's, not re-implemented here) and the number of progress notifications.
 * Events are the machine's, each non-timer event coming after a wait; a timer event
 * (IDLE_TIMEOUT / TOTAL_TIMEOUT) is offered only when that timer is the next one due, and means
 * "advance the clocks to its due time". Time only moves forward and PROGRESS is limited, so the
 * graph is finite and acyclic and `getSimplePaths` lists every path to a final state.
 */
import { expect } from 'chai';
import { getSimplePaths } from '@xstate/graph';
import { createActor, fromTransition, initialTransition, transition, type SnapshotFrom } from 'xstate';
import { ManualClock } from '../../lib/clock.js';
import { ConnectionClosedError, McpError, RequestCancelledError, RequestTimeoutError } from '../../lib/errors.js';
import { RequestRegistry, type Progress } from '../../lib/session/request-registry.js';
import { requestMachine, type RequestMachineEvent, type RequestMachineInput } from '../../machines/request.machine.js';

const TIMEOUT = 1000;
/** Waits before a PROGRESS: one well inside the idle timeout, one just short of it. */
const PROGRESS_WAITS = [400, 900];
/** Wait before RESPONSE / ERROR_RESPONSE / ABORT / CONNECTION_CLOSED. */
const FINAL_WAIT = 50;
const MAX_PROGRESS = 3;
const ID = 7;
const TOKEN = 'tok-7';

type MachineSnapshot = SnapshotFrom<typeof requestMachine>;
type TimerEventType = 'IDLE_TIMEOUT' | 'TOTAL_TIMEOUT';
type SentEventType = 'PROGRESS' | 'RESPONSE' | 'ERROR_RESPONSE' | 'ABORT' | 'CONNECTION_CLOSED';
type ModelEvent = { type: SentEventType; wait: number } | { type: TimerEventType };

interface Timer {
  id: string;
  due: number;
  seq: number;
  event: RequestMachineEvent;
}
interface ModelState {
  machine: MachineSnapshot;
  now: number;
  /** The machine's delayed events, earliest first (ties: scheduled first fires first). */
  timers: Timer[];
  seq: number;
  progress: number;
}

function isTimerEvent(e: ModelEvent): e is { type: TimerEventType } {
  return !('wait' in e);
}

const SENT: SentEventType[] = ['PROGRESS', 'RESPONSE', 'ERROR_RESPONSE', 'ABORT', 'CONNECTION_CLOSED'];

/** Apply the machine's delayed raise / cancel actions to the timeline. */
function schedule(state: ModelState, actions: readonly { type: string; params?: unknown }[]): ModelState {
  let timers = state.timers;
  let seq = state.seq;
  for (const action of actions) {
    const params = action.params as { delay?: number; id?: string; event?: RequestMachineEvent; sendId?: string } | undefined;
    if (action.type === 'xstate.raise' && params?.delay !== undefined) {
      timers = [...timers, { id: params.id!, due: state.now + params.delay, seq: seq++, event: params.event! }];
    } else if (action.type === 'xstate.cancel') {
      timers = timers.filter((t) => t.id !== params!.sendId);
    }
  }
  timers = [...timers].sort((a, b) => a.due - b.due || a.seq - b.seq);
  return { ...state, timers, seq };
}

function machineEvent(type: SentEventType, progress: number): RequestMachineEvent {
  switch (type) {
    case 'PROGRESS':
      return { type, progress, total: MAX_PROGRESS };
    case 'RESPONSE':
      return { type, result: { ok: true } };
    case 'ERROR_RESPONSE':
      return { type, error: { code: -32603, message: 'tool exploded' } };
    case 'ABORT':
      return { type, reason: 'user gave up' };
    case 'CONNECTION_CLOSED':
      return { type };
  }
}

function modelLogic(input: RequestMachineInput) {
  const [machine, actions] = initialTransition(requestMachine, input);
  const initial = schedule({ machine, now: 0, timers: [], seq: 0, progress: 0 }, actions);
  return fromTransition((state: ModelState, event: ModelEvent): ModelState => {
    if (isTimerEvent(event)) {
      const timer = state.timers[0]!;
      const fired = { ...state, now: timer.due, timers: state.timers.slice(1) };
      const [next, acts] = transition(requestMachine, state.machine, timer.event);
      return schedule({ ...fired, machine: next }, acts);
    }
    const progress = state.progress + (event.type === 'PROGRESS' ? 1 : 0);
    const [next, acts] = transition(requestMachine, state.machine, machineEvent(event.type, progress));
    return schedule({ ...state, machine: next, now: state.now + event.wait, progress }, acts);
  }, initial);
}

/** What can happen next: a sent event if it arrives before the next timer, or that timer. */
function feasibleEvents(state: ModelState): ModelEvent[] {
  if (state.machine.status !== 'active') return [];
  const next = state.timers[0];
  const events: ModelEvent[] = [];
  for (const type of SENT) {
    if (type === 'PROGRESS' && state.progress >= MAX_PROGRESS) continue;
    for (const wait of type === 'PROGRESS' ? PROGRESS_WAITS : [FINAL_WAIT]) {
      if (!next || state.now + wait < next.due) events.push({ type, wait });
    }
  }
  if (next) events.push({ type: next.event.type as TimerEventType });
  return events;
}

function stateName(value: unknown): string {
  return typeof value === 'string' ? value : stateName(Object.values(value as Record<string, unknown>)[0]);
}

type Outcome = 'pending' | 'resolved' | 'McpError' | 'RequestTimeoutError' | 'RequestCancelledError' | 'ConnectionClosedError';
const ACTION_OUTCOME: Record<string, Outcome> = {
  resolve: 'resolved',
  rejectWithError: 'McpError',
  rejectTimedOut: 'RequestTimeoutError',
  rejectAborted: 'RequestCancelledError',
  rejectClosed: 'ConnectionClosedError',
};
function errorOutcome(e: unknown): Outcome | string {
  // Most specific first: the three others extend McpError.
  if (e instanceof ConnectionClosedError) return 'ConnectionClosedError';
  if (e instanceof RequestCancelledError) return 'RequestCancelledError';
  if (e instanceof RequestTimeoutError) return 'RequestTimeoutError';
  if (e instanceof McpError) return 'McpError';
  return `unexpected ${String(e)}`;
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

type Path = ReturnType<typeof pathsFor>[number];

function pathsFor(input: RequestMachineInput) {
  return getSimplePaths(modelLogic(input), {
    events: (snapshot) => feasibleEvents(snapshot.context),
    serializeState: (snapshot) => {
      const s = snapshot.context;
      return JSON.stringify([s.machine.value, s.now, s.progress, s.timers.map((t) => [t.id, t.due])]);
    },
    toState: (snapshot) => snapshot.context.machine.status === 'done',
  });
}

/** Walk one path on a real actor and on the registry, comparing after every step. */
async function walk(input: RequestMachineInput, path: Path): Promise<{ cancelled: number }> {
  // (a) the machine, as an actor with its effects recorded and its own timers on a manual clock
  const actorClock = new ManualClock();
  const actions: string[] = [];
  const record = (name: string) => () => {
    actions.push(name);
  };
  const actor = createActor(
    requestMachine.provide({
      actions: {
        reportProgress: record('reportProgress'),
        resolve: record('resolve'),
        rejectWithError: record('rejectWithError'),
        rejectTimedOut: record('rejectTimedOut'),
        rejectAborted: record('rejectAborted'),
        rejectClosed: record('rejectClosed'),
        sendCancelled: record('sendCancelled'),
      },
    }),
    { input, clock: actorClock },
  );
  actor.start();

  // (b) the registry, on its own manual clock
  const registryClock = new ManualClock();
  const cancelled: string[] = [];
  const fired: string[] = [];
  const progressSeen: Progress[] = [];
  const registry = new RequestRegistry(
    registryClock,
    { sendCancelled: (id, reason) => cancelled.push(`${id}: ${reason}`), timerFired: (name) => fired.push(name) },
    60_000,
  );
  let registryOutcome: Outcome | string = 'pending';
  let registryError: unknown;
  registry
    .register(
      ID,
      input.method,
      {
        timeout: input.timeout,
        resetTimeoutOnProgress: input.resetTimeoutOnProgress,
        maxTotalTimeout: input.maxTotalTimeout,
        onprogress: (p) => progressSeen.push(p),
      },
      TOKEN,
    )
    .then(
      () => (registryOutcome = 'resolved'),
      (e: unknown) => {
        registryOutcome = errorOutcome(e);
        registryError = e;
      },
    );

  const trail: string[] = [];
  for (const [index, step] of path.steps.entries()) {
    const expected = step.state.context;
    const event = step.event as ModelEvent | { type: 'xstate.init' };
    if (index > 0) {
      const e = event as ModelEvent;
      trail.push(`${e.type}@${expected.now}`);
      const firedBefore = fired.length;
      actorClock.advanceTo(expected.now);
      registryClock.advanceTo(expected.now);
      if (isTimerEvent(e)) {
        expect(fired.slice(firedBefore), `${trail.join(' ')}: registry timer`).to.deep.equal([
          `request:${ID}:${e.type === 'IDLE_TIMEOUT' ? 'idle' : 'total'}`,
        ]);
      } else {
        expect(fired.length, `${trail.join(' ')}: no registry timer fires during the wait`).to.equal(firedBefore);
        const sent = machineEvent(e.type, expected.progress);
        actor.send(sent);
        switch (sent.type) {
          case 'PROGRESS':
            expect(registry.progress(TOKEN, { progress: sent.progress, total: sent.total }), `${trail.join(' ')}: token known`).to.equal(true);
            break;
          case 'RESPONSE':
            expect(registry.settle(ID, { ok: true }, undefined)).to.equal('settled');
            break;
          case 'ERROR_RESPONSE':
            expect(registry.settle(ID, undefined, sent.error)).to.equal('settled');
            break;
          case 'ABORT':
            expect(registry.abort(ID, sent.reason)).to.equal(true);
            break;
          case 'CONNECTION_CLOSED':
            registry.closeAll();
            break;
        }
      }
      await flush();
    }

    const where = `[${input.method} reset=${input.resetTimeoutOnProgress} total=${input.maxTotalTimeout}] ${trail.join(' ') || '(start)'}`;
    const snapshot = actor.getSnapshot();
    const modelName = stateName(expected.machine.value);
    expect(stateName(snapshot.value), `${where}: actor state`).to.equal(modelName);
    expect(registry.stateOf(ID), `${where}: registry state`).to.equal(modelName);

    const actorCancelled = actions.filter((a) => a === 'sendCancelled').length;
    expect(actorCancelled, `${where}: machine sent cancelled at most once`).to.be.at.most(1);
    expect(cancelled.length, `${where}: registry sent cancelled as often as the machine`).to.equal(actorCancelled);

    const outcomes = actions.filter((a) => a in ACTION_OUTCOME).map((a) => ACTION_OUTCOME[a]!);
    expect(outcomes.length, `${where}: settled at most once`).to.be.at.most(1);
    expect(registryOutcome, `${where}: promise outcome`).to.equal(outcomes[0] ?? 'pending');
    expect(progressSeen.length, `${where}: progress reported`).to.equal(actions.filter((a) => a === 'reportProgress').length);
  }

  const last = path.steps[path.steps.length - 1]!;
  const lastEvent = last.event as ModelEvent;
  expect(actor.getSnapshot().status).to.equal('done');
  if (isTimerEvent(lastEvent)) {
    const error = registryError as RequestTimeoutError;
    const kind = lastEvent.type === 'IDLE_TIMEOUT' ? 'idle' : 'total';
    expect(error.kind, trail.join(' ')).to.equal(kind);
    expect(error.elapsedMs, trail.join(' ')).to.equal(kind === 'idle' ? input.timeout : input.maxTotalTimeout);
  }
  // Nothing left to fire on either side.
  expect(actorClock.pending, 'actor timers left').to.equal(0);
  expect(registryClock.pending, 'registry timers left').to.equal(0);
  return { cancelled: cancelled.length };
}

interface Variant {
  input: RequestMachineInput;
  paths: Path[];
}

const variants: Variant[] = [];
for (const method of ['tools/call', 'initialize']) {
  for (const resetTimeoutOnProgress of [true, false]) {
    for (const maxTotalTimeout of [2500, 800, undefined]) {
      const input: RequestMachineInput = { method, timeout: TIMEOUT, resetTimeoutOnProgress, maxTotalTimeout };
      variants.push({ input, paths: pathsFor(input) });
    }
  }
}
const totalPaths = variants.reduce((n, v) => n + v.paths.length, 0);

function eventsOf(path: Path): string[] {
  return path.steps.slice(1).map((s) => s.event.type);
}

describe(`requestMachine ≡ RequestRegistry (model-based, ${totalPaths} paths)`, () => {
  for (const { input, paths } of variants) {
    const label = `${input.method}, resetTimeoutOnProgress ${input.resetTimeoutOnProgress}, maxTotalTimeout ${input.maxTotalTimeout ?? 'unset'}`;
    it(`${label}: ${paths.length} paths agree step by step`, async () => {
      expect(paths.length).to.be.greaterThan(0);
      for (const path of paths) {
        const { cancelled } = await walk(input, path);
        // `initialize` MUST NOT be cancelled; anything else is, when it times out or is aborted.
        const last = eventsOf(path).at(-1)!;
        const cancels = input.method !== 'initialize' && ['ABORT', 'IDLE_TIMEOUT', 'TOTAL_TIMEOUT'].includes(last);
        expect(cancelled, `${eventsOf(path).join(' ')}: notifications/cancelled`).to.equal(cancels ? 1 : 0);
      }

      // The graph reaches every event the timeline allows.
      const covered = new Set(paths.flatMap(eventsOf));
      const total = input.maxTotalTimeout;
      const expected = new Set<string>(['PROGRESS', 'RESPONSE', 'ERROR_RESPONSE', 'ABORT', 'CONNECTION_CLOSED']);
      if (total === undefined || total > TIMEOUT) expected.add('IDLE_TIMEOUT');
      if (total !== undefined && (total < TIMEOUT || input.resetTimeoutOnProgress)) expected.add('TOTAL_TIMEOUT');
      expect([...covered].sort()).to.deep.equal([...expected].sort());
    });
  }

  it('includes paths where progress keeps resetting the idle timer and the total timer still fires', () => {
    const variant = variants.find((v) => v.input.method === 'tools/call' && v.input.resetTimeoutOnProgress && v.input.maxTotalTimeout === 2500)!;
    const resetThenTotal = variant.paths.filter((p) => {
      const events = eventsOf(p);
      return events.filter((e) => e === 'PROGRESS').length >= 2 && events[events.length - 1] === 'TOTAL_TIMEOUT';
    });
    expect(resetThenTotal.length).to.be.greaterThan(0);
    // Without reset the idle timer always wins against a 2500 ms total.
    const noReset = variants.find((v) => v.input.method === 'tools/call' && !v.input.resetTimeoutOnProgress && v.input.maxTotalTimeout === 2500)!;
    expect(noReset.paths.some((p) => eventsOf(p).includes('TOTAL_TIMEOUT'))).to.equal(false);
  });
});
