/**
 * A bench worker: one process per (implementation, transport), so that implementations do not
 * share a heap, a JIT or a GC. The orchestrator (run.ts) drives it over the IPC channel:
 * setup (connect), run (one workload, warm-up or timed), close.
 */
import { TEXT, type FromWorker, type ToWorker } from './common.js';
import { createDriver, type Driver } from './drivers.js';
import { measure } from './measure.js';

let driver: Driver | undefined;

function reply(msg: FromWorker): void {
  process.send!(msg);
}

async function handle(msg: ToWorker): Promise<void> {
  switch (msg.cmd) {
    case 'setup': {
      driver = await createDriver(msg.impl, msg.transport, msg.serverExecArgv);
      const text = await driver.call();
      if (text !== TEXT) throw new Error(`${driver.label}: echo returned ${JSON.stringify(text)}`);
      reply({ type: 'ready', label: driver.label });
      return;
    }
    case 'run': {
      const result = await measure(driver!, msg.workload, msg.calls, msg.window);
      reply({ type: 'result', result });
      return;
    }
    case 'close': {
      await driver?.close();
      reply({ type: 'closed' });
      // Do not wait for stray handles (an SDK timer, a child's pipes): the worker is done.
      setTimeout(() => process.exit(0), 50);
      return;
    }
  }
}

process.on('message', (msg: ToWorker) => {
  handle(msg).catch((e: unknown) => {
    reply({ type: 'error', message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  });
});
