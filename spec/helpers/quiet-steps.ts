/**
 * Stepping a client's simulated clock while its requests travel over real I/O (a socket, a child
 * process). Every timer of the client runs on that clock, its request timeouts too: a step taken
 * while a request is on the wire moves its deadline closer, and a loop that steps every few ms of
 * real time times a request out whenever the peer takes longer than (timeout / step) × pause to
 * answer, as a loaded machine does. So each step waits, in real time, until nothing is in flight.
 */
import type { Observable } from 'rxjs';
import type { ManualClock } from '../../lib/clock.js';

interface FrameSource {
  readonly frames$: Observable<{ direction: 'in' | 'out'; frame: unknown }>;
}

/**
 * Advance `clock` by `stepMs` until `p` settles (at most `steps` steps), each step once the
 * requests `client` sent since the call are answered (waiting at most `quietMs` of real time).
 */
export async function stepWhenQuiet<T>(clock: ManualClock, client: FrameSource, p: Promise<T>, { stepMs = 1_000, steps = 400, quietMs = 15_000 } = {}): Promise<T> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  const open = new Set<unknown>();
  const sub = client.frames$.subscribe(({ direction, frame }) => {
    for (const f of Array.isArray(frame) ? frame : [frame]) {
      if (typeof f !== 'object' || f === null || !('id' in f)) continue;
      const { id, method } = f as { id: unknown; method?: unknown };
      if (direction === 'out' && typeof method === 'string') open.add(id);
      else if (direction === 'in' && method === undefined) open.delete(id);
    }
  });
  try {
    for (let i = 0; i < steps && !done; i++) {
      // Real time for the peer (and the client's own turns) between steps.
      await new Promise((r) => setTimeout(r, 5));
      for (const deadline = Date.now() + quietMs; open.size > 0 && !done && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 2));
      if (!done) clock.advance(stepMs);
    }
  } finally {
    sub.unsubscribe();
  }
  return p;
}
