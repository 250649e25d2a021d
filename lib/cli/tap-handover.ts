/**
 * The server's side of `record --in-process` (record-tap.ts installs it in the server's process):
 * captures go into a batch (tap-batch.ts) that is transferred every 20 ms to a worker thread
 * (record-tap-worker.ts), which journals it; when the process exits, the last batch is handed over
 * and the exiting thread waits until the worker has closed the journal. A worker that cannot start
 * leaves the batches to be journaled on this thread, as before there were workers.
 */
import { closeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { RecordingWriter } from './recording.js';
import { Redactor } from './redact.js';
import { applyBatch, FULL_BATCH, TapBatch, type TapBatchData, type TapEvent } from './tap-batch.js';
import type { TapMessage, TapWorkerData } from './record-tap-worker.js';

// From sources the worker is TypeScript, loaded through a plain module that registers tsx first.
const WORKER = new URL(import.meta.url.endsWith('.ts') ? './record-tap-worker.dev.mjs' : './record-tap-worker.js', import.meta.url);
/**
 * How often the capturing thread hands a batch over (ms): the journal trails the wire by about
 * this, and a process killed outright loses about this much. A hand-over costs that thread some
 * tens of microseconds (a message to the worker, a fresh buffer): a fraction of a percent at 50/s.
 */
const HAND_OVER_MS = 20;
/** How long an exiting server waits for the worker to finish the journal. */
const EXIT_WAIT_MS = 5000;

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
  private readonly batch: TapBatch;
  private timer: NodeJS.Timeout | undefined;
  private worker: Worker | undefined;
  private ready = false;
  /** Batches taken before the worker said it runs (kept, in case it never does). */
  private held: TapBatchData[] = [];
  /** The journal on this thread, when there is no worker. */
  private local: RecordingWriter | undefined;
  private readonly done = new Int32Array(new SharedArrayBuffer(4));
  private closed = false;
  private settle!: (where: 'worker' | 'here') => void;
  /** Where the journal is written: resolves once the worker runs, or once it is known it will not. */
  readonly settled = new Promise<'worker' | 'here'>((resolve) => (this.settle = resolve));

  /** `workerUrl` is for tests (a worker that cannot start). */
  constructor(
    private readonly config: TapJournal,
    private readonly fd: number,
    workerUrl: URL = WORKER,
  ) {
    this.batch = new TapBatch(config.startedAt - performance.timeOrigin);
    try {
      const data: TapWorkerData = { config, fd, done: this.done };
      // The journal's fd is opened here and closed by the worker: not the worker's to track.
      const worker = new Worker(workerUrl, { workerData: data, execArgv: [], trackUnmanagedFds: false });
      worker.unref(); // the recorder never keeps the server alive
      worker.once('message', () => {
        this.ready = true;
        for (const b of this.held) this.post({ batch: b });
        this.held = [];
        this.settle('worker');
      });
      worker.once('error', (e) => {
        this.worker = undefined;
        if (!this.ready) {
          // A worker that never ran: journal here instead, from the first batch.
          this.journalHere();
          return;
        }
        // It ran and wrote part of the journal: another writer cannot continue its numbering.
        this.closed = true;
        process.stderr.write(`mcp-actors record: the recorder stopped (its worker thread failed: ${e.message}); the journal ends here\n`);
      });
      this.worker = worker;
    } catch {
      this.journalHere();
    }
  }

  capture(side: 0 | 1, chunk: string | Uint8Array): void {
    if (this.closed) return;
    this.batch.capture(side, chunk);
    if (this.batch.used >= FULL_BATCH) {
      if (this.timer) clearTimeout(this.timer);
      this.handOver();
    } else this.schedule();
  }

  event(e: TapEvent): void {
    if (this.closed) return;
    this.batch.event(e);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.handOver(), HAND_OVER_MS);
    this.timer.unref();
  }

  private handOver(): void {
    this.timer = undefined;
    const b = this.batch.take();
    if (!b) return;
    if (this.local) applyBatch(this.local, b);
    else if (this.ready) this.post({ batch: b });
    else this.held.push(b);
  }

  private post(m: TapMessage): void {
    this.worker?.postMessage(m, m.batch ? [m.batch.bytes.buffer as ArrayBuffer] : []);
  }

  private journalHere(): void {
    this.settle('here');
    if (this.local) return;
    this.local = journalWriter(this.config, this.fd);
    for (const b of this.held) applyBatch(this.local, b);
    this.held = [];
  }

  /** The process exits: the rest is journaled and the journal closed before it does. */
  close(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.handOver();
    this.closed = true;
    if (!this.local && !this.ready) {
      this.worker?.terminate().catch(() => undefined);
      this.worker = undefined;
      this.journalHere();
    }
    if (this.local) {
      this.local.close();
      return;
    }
    this.post({ last: true });
    // Blocking is allowed here (the process is exiting) and needed: 'exit' listeners cannot wait.
    if (Atomics.wait(this.done, 0, 0, EXIT_WAIT_MS) === 'timed-out') {
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
