/**
 * Model-based test: `HttpSessionLifecycle` (streams/http-session.ts) executes
 * `machines/http-session.machine.ts` without an actor. This spec walks every sequence of up to
 * six machine events from the initial state, feeding each to the machine (pure `transition`) and
 * to a record on a `ManualClock`, and checks after every step that both agree on the state, the
 * open-exchange count, the idle timer (pending or not) and the `terminate` action.
 *
 * IDLE_TIMEOUT is offered only when the machine has its delayed event pending, and means "fire
 * the idle timer": the machine gets the event, the record's clock fires its named timer.
 */
import { expect } from 'chai';
import { initialTransition, transition, type SnapshotFrom } from 'xstate';
import { ManualClock } from '../../lib/clock.js';
import { httpSessionMachine, type HttpSessionMachineEvent } from '../../machines/http-session.machine.js';
import { HttpSessionLifecycle, IDLE_TIMER_NAME, type HttpSessionState } from '../../streams/http-session.js';

const TTL = 1000;
const DEPTH = 8;
type Snapshot = SnapshotFrom<typeof httpSessionMachine>;
type EventType = HttpSessionMachineEvent['type'];
const EVENTS: EventType[] = ['EXCHANGE_OPENED', 'EXCHANGE_CLOSED', 'IDLE_TIMEOUT', 'DELETE', 'SESSION_ENDED'];

class Record extends HttpSessionLifecycle {
  terminations = 0;
  protected terminate(): void {
    this.terminations++;
  }
}

interface Model {
  snapshot: Snapshot;
  timerPending: boolean;
  terminations: number;
}

function apply(model: Model, actions: readonly { type: string; params?: unknown }[], snapshot: Snapshot): Model {
  let { timerPending, terminations } = model;
  for (const a of actions) {
    const params = a.params as { delay?: number; id?: string; sendId?: string } | undefined;
    if (a.type === 'xstate.raise' && params?.delay !== undefined) {
      expect(params.delay).to.equal(TTL);
      expect(params.id).to.equal('idleTimeout');
      timerPending = true;
    } else if (a.type === 'xstate.cancel' && params?.sendId === 'idleTimeout') {
      timerPending = false;
    } else if (a.type === 'terminate') {
      terminations++;
    }
  }
  return { snapshot, timerPending, terminations };
}

function stateName(s: Snapshot): HttpSessionState {
  if (s.status === 'done' || s.value === 'terminated') return 'terminated';
  return (s.value as { live: 'idle' | 'busy' }).live;
}

describe('http-session machine ↔ HttpSessionLifecycle (model-based)', () => {
  it('agree on every path of up to eight events', () => {
    const [s0, a0] = initialTransition(httpSessionMachine, { idleTtlMs: TTL });
    const start = apply({ snapshot: s0, timerPending: false, terminations: 0 }, a0, s0);
    let paths = 0;

    const walk = (path: EventType[], model: Model) => {
      // Replay the path on a fresh record (the record is stateful; the machine is pure).
      const clock = new ManualClock(0);
      const record = new Record(clock, TTL);
      for (const type of path) {
        switch (type) {
          case 'EXCHANGE_OPENED':
            record.exchangeOpened();
            break;
          case 'EXCHANGE_CLOSED':
            record.exchangeClosed();
            break;
          case 'IDLE_TIMEOUT':
            expect(clock.fireNamed(IDLE_TIMER_NAME), `${path.join(' → ')}: timer`).to.equal(true);
            break;
          case 'DELETE':
            record.deleted();
            break;
          case 'SESSION_ENDED':
            record.sessionEnded();
            break;
        }
      }
      const where = path.join(' → ') || '(start)';
      expect(record.lifecycle, where).to.equal(stateName(model.snapshot));
      expect(record.openExchanges, where).to.equal(model.snapshot.context.open);
      expect(clock.pending === 1, `${where}: idle timer pending`).to.equal(model.timerPending);
      expect(record.terminations, `${where}: terminate`).to.equal(model.terminations);
      paths++;
      if (path.length === DEPTH || model.snapshot.status === 'done') return;
      for (const type of EVENTS) {
        if (type === 'IDLE_TIMEOUT' && !model.timerPending) continue;
        const [next, actions] = transition(httpSessionMachine, model.snapshot, { type } as HttpSessionMachineEvent);
        // A fired timer is no longer pending.
        const fired = type === 'IDLE_TIMEOUT' ? { ...model, timerPending: false } : model;
        walk([...path, type], apply(fired, actions, next));
      }
    };
    walk([], start);
    // Every path ends in `terminated` or at the depth: 1,099 states of the walk.
    expect(paths).to.equal(1099);
  });

  it('terminates once, whatever ends it first', () => {
    const clock = new ManualClock(0);
    const record = new Record(clock, TTL);
    record.deleted();
    record.sessionEnded();
    clock.advance(TTL * 2);
    expect(record.terminations).to.equal(1);
    expect(clock.pending).to.equal(0);
  });
});
