/**
 * The server's side of `record --in-process` (record-tap.ts installs it in the server's process),
 * and the stdio proxy's: captures go into a ring of shared memory (tap-ring.ts) that a worker
 * thread (record-tap-worker.ts) reads every 100 ms on its own clock and journals. The capturing
 * thread sends it nothing per frame or per batch: a message and a wake-up per hand-over, and the
 * garbage of a fresh batch, cost a sequential stdio round trip several percent.
 *
 * Who journals is settled once, in the ring: the worker when it starts, or this thread when the
 * worker cannot start or the process exits before it ran. At exit this thread wakes the worker
 * and waits until it has journaled the rest and closed the journal.
 */
import { closeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { RecordingWriter } from './recording.js';
import { Redactor } from '../shared/redactor.js';
import { DONE, journalRing, OWNER, TapRing, type TapEvent } from './tap-ring.js';

/** What the capturing thread passes to the worker. */
export interface TapWorkerData {
  config: TapJournal;
  /** The journal, already created (exclusively) by the capturing thread. */
  fd: number;
  /** The ring's memory. */
  shared: SharedArrayBuffer;
}

// From sources the worker is TypeScript, loaded through a plain module that registers tsx first.
const WORKER = new URL(import.meta.url.endsWith('.ts') ? './record-tap-worker.dev.mjs' : './record-tap-worker.js', import.meta.url);
/**
 * How often the worker reads the ring (ms): the journal trails the wire by about this, and a
 * process killed outright loses about this much. Bigger batches cost the worker less per frame
 * (3.0-3.3 µs every 20 ms, 2.0-2.4 every 100 ms, paced like a stdio echo; no better beyond, and
 * worse at 1 s, when the ring's bytes are no longer in cache).
 */
export const READ_EVERY_MS = 100;
/** How often the server's own thread journals, when there is no worker: small batches, short pauses. */
const LOCAL_READ_EVERY_MS = 20;
/** How long an exiting server waits for the worker to finish the journal. */
const EXIT_WAIT_MS = 5000;
/** How long a capture waits, at most, for room in a full ring before the recording gives up (the server never stops for the recorder). */
const FULL_WAIT_MS = 5000;
/** A full ring that nobody has claimed after this long is journaled on this thread (a worker that is not coming). */
const UNCLAIMED_MS = 1000;

const OWNER_WORKER = 1;
const OWNER_HERE = 2;

/** Where and how a tap journals. */
export interface TapJournal {
  /** The journal's path (for the header; the file itself is the fd a Tap is given). */
  out: string;
  /** Extra keys to hide (`--redact`). */
  redact: string[];
  /** What is recorded: the server's command line (redacted in the header). */
  target: string;
  /** When recording started (ms since the epoch, with fractions): entries are stamped from it. */
  startedAt: number;
  /** Inside the server's process (`record --in-process`), or a proxy process. */
  inProcess: boolean;
}

/** A stdio recorder: captures on this thread, journals on a worker thread. */
export class Tap {
  private readonly start: number;
  private worker: Worker | undefined;
  /** The journal on this thread, when there is no worker. */
  private local: RecordingWriter | undefined;
  private localTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private nudged = false;
  private settle!: (where: 'worker' | 'here') => void;
  /** Where the journal is written: resolves once the worker runs, or once it is known it will not. */
  readonly settled = new Promise<'worker' | 'here'>((resolve) => (this.settle = resolve));

  /** `workerUrl` is for tests (a worker that cannot start), and so is `ring` (a small one). */
  constructor(
    private readonly config: TapJournal,
    private readonly fd: number,
    workerUrl: URL = WORKER,
    readonly ring: TapRing = new TapRing(),
  ) {
    this.start = config.startedAt - performance.timeOrigin;
    try {
      const data: TapWorkerData = { config, fd, shared: ring.shared };
      // The journal's fd is opened here and closed by the worker: not the worker's to track.
      const worker = new Worker(workerUrl, { workerData: data, execArgv: [], trackUnmanagedFds: false });
      worker.unref(); // the recorder never keeps the server alive
      worker.once('message', () => this.settle('worker'));
      worker.once('error', (e) => {
        this.worker = undefined;
        if (this.claim()) return; // it never journaled: this thread does, from the start of the ring
        if (Atomics.load(this.ring.control, OWNER) !== OWNER_WORKER) return;
        // It ran and wrote part of the journal: another writer cannot continue its numbering.
        this.closed = true;
        process.stderr.write(`mcp-actors record: the recorder stopped (its worker thread failed: ${e.message}); the journal ends here\n`);
      });
      this.worker = worker;
    } catch {
      this.claim();
    }
  }

  capture(side: 0 | 1, chunk: string | Uint8Array): void {
    if (this.closed) return;
    if (!this.ring.capture(side, chunk, performance.now() - this.start, this.waitForRoom)) this.giveUp();
  }

  event(e: TapEvent): void {
    if (this.closed) return;
    if (!this.ring.event(e, performance.now() - this.start, this.waitForRoom)) this.giveUp();
  }

  /** The ring is full: make room (journal here, or wake the worker and wait for it); false to give up. */
  private readonly waitForRoom = (): boolean => {
    const since = performance.now();
    for (;;) {
      if (this.local) {
        journalRing(this.local, this.ring);
        return true;
      }
      const owner = Atomics.load(this.ring.control, OWNER);
      const waited = performance.now() - since;
      if (owner === 0 && waited > UNCLAIMED_MS && this.claim()) continue;
      if (waited > FULL_WAIT_MS) return false;
      if (!this.nudged) {
        // The worker reads on its own clock; a message gets it to read now.
        this.nudged = true;
        this.worker?.postMessage('read');
      }
      this.ring.waitForReader(50);
      if (this.ring.used < this.ring.capacity / 2) {
        this.nudged = false;
        return true;
      }
    }
  };

  private giveUp(): void {
    this.closed = true;
    process.stderr.write('mcp-actors record: the recorder fell more than its buffer behind for 5 s; the journal ends here (the server runs on)\n');
  }

  /** This thread journals, if nobody does yet: true when it took it on now. */
  private claim(): boolean {
    if (Atomics.compareExchange(this.ring.control, OWNER, 0, OWNER_HERE) !== 0) return false;
    this.worker?.terminate().catch(() => undefined);
    this.worker = undefined;
    this.local = journalWriter(this.config, this.fd);
    journalRing(this.local, this.ring);
    this.localTimer = setInterval(() => journalRing(this.local!, this.ring), LOCAL_READ_EVERY_MS);
    this.localTimer.unref();
    this.settle('here');
    return true;
  }

  /** The process exits: the rest is journaled and the journal closed before it does. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.claim(); // a worker that has not started yet never will: this thread journals
    if (this.local) {
      clearInterval(this.localTimer);
      journalRing(this.local, this.ring);
      this.local.close();
      return;
    }
    this.worker?.postMessage('last');
    // Blocking is allowed here (the process is exiting) and needed: 'exit' listeners cannot wait.
    if (Atomics.wait(this.ring.control, DONE, 0, EXIT_WAIT_MS) === 'timed-out') {
      try {
        closeSync(this.fd);
      } catch {
        // already closed by the worker
      }
    }
  }
}

/** The journal's writer, on whichever thread journals (the header says how it was recorded). */
export function journalWriter(config: TapJournal, fd: number): RecordingWriter {
  return new RecordingWriter(config.out, { transport: 'stdio', target: config.target, ...(config.inProcess && { inProcess: true }) }, new Redactor(config.redact), { fd, startedAt: config.startedAt });
}
