/**
 * The worker thread of `record --in-process`: journals the batches the server's thread hands over
 * (record-tap.ts), so splitting, parsing, redaction and disk writes run beside the server instead
 * of between its requests. At the server's exit it journals the last batch, closes the journal and
 * says so through a shared flag the exiting thread waits on.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { RecordingWriter } from './recording.js';
import { applyBatch, type TapBatchData } from './tap-batch.js';
import { journalWriter, type TapJournal } from './tap-handover.js';

/** What the server's thread passes to the worker. */
export interface TapWorkerData {
  config: TapJournal;
  /** The journal, already created (exclusively) by the server's thread. */
  fd: number;
  /** Set to 1 (and notified) once the journal is complete and closed. */
  done: Int32Array;
}

/** A message to the worker: a batch, and whether it is the last one (the server is exiting). */
export interface TapMessage {
  batch?: TapBatchData;
  last?: boolean;
}

const { config, fd, done } = workerData as TapWorkerData;
// Made on the first message, not before: until the server's thread has heard from this worker it
// may still journal on its own thread (at an early exit), and the journal must have one header.
let writer: RecordingWriter | undefined;
parentPort!.on('message', (m: TapMessage) => {
  writer ??= journalWriter(config, fd);
  if (m.batch) applyBatch(writer, m.batch);
  if (m.last) {
    writer.close();
    Atomics.store(done, 0, 1);
    Atomics.notify(done, 0);
    parentPort!.close();
  }
});
parentPort!.postMessage('ready');
