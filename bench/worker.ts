/**
 * A bench worker: one process per (implementation, transport), so that implementations do not
 * share a heap, a JIT or a GC. The orchestrator (run.ts) drives it over the IPC channel:
 * setup (connect), run (one workload, warm-up or timed), close. HTTP workers: http-setup (fork the
 * server), http-open (n client sessions), http-run (all sessions at once), close; or http-idle
 * (server memory per idle session, on a fresh server). Modern (2026-07-28) workers: modern-setup
 * (fork the server, connect the SDK v2 client), run, modern-memory, close. HTTP with one client and
 * any workload: http-call-setup (fork the server, connect the client), run, close.
 */
import { TEXT, type FromWorker, type ToWorker } from './common.js';
import { createDriver, type Driver } from './drivers.js';
import { createHttpCallDriver, createHttpDriver, measureIdle, type HttpDriver } from './http-drivers.js';
import { measure, measureSessions } from './measure.js';
import { createModernDriver, measureRequestMemory, ModernUnavailable, type ModernDriver } from './modern-drivers.js';

/**
 * Print each kind of process warning once. The SDK's HTTP client passes one session-long
 * AbortSignal to every fetch, and Node's fetch keeps an abort listener per request until the
 * request is garbage-collected, so it warns (MaxListenersExceededWarning) on every call past 1,500
 * live listeners; printing thousands of them would slow that worker and bury the table.
 */
const warned = new Map<string, number>();
process.removeAllListeners('warning');
process.on('warning', (w) => {
  const n = (warned.get(w.name) ?? 0) + 1;
  warned.set(w.name, n);
  if (n === 1) process.stderr.write(`\n[worker pid ${process.pid}] ${w.name}: ${w.message} (further ${w.name}s of this worker not shown)\n`);
});

let driver: Driver | undefined;
let httpDriver: HttpDriver | undefined;
let modernDriver: ModernDriver | undefined;

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
    case 'http-setup': {
      httpDriver = await createHttpDriver(msg.impl, msg.mode);
      reply({ type: 'ready', label: httpDriver.label });
      return;
    }
    case 'http-open': {
      await httpDriver!.open(msg.sessions);
      reply({ type: 'ready', label: httpDriver!.label });
      return;
    }
    case 'http-run': {
      reply({ type: 'result', result: await measureSessions(httpDriver!, msg.perSession) });
      return;
    }
    case 'http-idle': {
      reply({ type: 'idle', result: await measureIdle(msg.impl, msg.sessions, msg.warmup, 'json', msg.getStream) });
      return;
    }
    case 'modern-setup': {
      try {
        modernDriver = await createModernDriver(msg.server, msg.client);
      } catch (e) {
        if (e instanceof ModernUnavailable) return reply({ type: 'unavailable', reason: e.message });
        throw e;
      }
      driver = modernDriver;
      reply({ type: 'ready', label: modernDriver.label });
      return;
    }
    case 'http-call-setup': {
      driver = msg.impl === 'sdk2' ? await createModernDriver('sdk2', 'sdk2') : await createHttpCallDriver(msg.impl, msg.mode);
      reply({ type: 'ready', label: driver.label });
      return;
    }
    case 'modern-memory': {
      reply({ type: 'memory-per-request', result: await measureRequestMemory(modernDriver!, msg.calls) });
      return;
    }
    case 'close': {
      await driver?.close();
      await httpDriver?.close();
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
