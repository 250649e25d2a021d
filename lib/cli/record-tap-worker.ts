/**
 * The worker thread of `record --in-process` and of the stdio proxy: reads the ring the capturing
 * thread fills (tap-ring.ts) every 100 ms and journals what it finds, so splitting, checks,
 * redaction and disk writes run beside the server instead of between its requests. Told that the
 * process exits, it journals the rest, closes the journal and says so through the ring's DONE
 * word, which the exiting thread waits on.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { journalWriter, READ_EVERY_MS, type TapWorkerData } from './tap-handover.js';
import { DONE, journalRing, OWNER, TapRing } from './tap-ring.js';

const { config, fd, shared } = workerData as TapWorkerData;
const ring = new TapRing(shared);
// The capturing thread may have taken the journal on already (an early exit): then it is not ours.
if (Atomics.compareExchange(ring.control, OWNER, 0, 1) === 0) {
  const writer = journalWriter(config, fd);
  const read = () => journalRing(writer, ring);
  const timer = setInterval(read, READ_EVERY_MS);
  parentPort!.on('message', (m: 'read' | 'last') => {
    read();
    if (m === 'last') {
      clearInterval(timer);
      writer.close();
      Atomics.store(ring.control, DONE, 1);
      Atomics.notify(ring.control, DONE);
      parentPort!.close();
    }
  });
  // Before the first read, while the server starts: page faults on the worker's time, not the server's.
  ring.prefault();
  parentPort!.postMessage('ready');
} else parentPort!.close();
