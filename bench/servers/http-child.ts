/**
 * What the HTTP bench servers share: they are forked with an IPC channel; each announces its URL,
 * answers `memory` (GC, then `process.memoryUsage()` and its session count: needs --expose-gc)
 * and exits on `exit` or when the parent goes away.
 */
import type { FromHttpServer, HttpMode, ToHttpServer } from '../common.js';

/** `--mode json|sse` from the command line (default json). */
export function modeArg(): HttpMode {
  const i = process.argv.indexOf('--mode');
  return process.argv[i + 1] === 'sse' ? 'sse' : 'json';
}

/** Serve the parent: report `url`, then answer memory questions until told to exit. */
export function serveParent(url: string, sessions: () => number): void {
  const send = (m: FromHttpServer): void => {
    process.send!(m);
  };
  process.on('message', (m: ToHttpServer) => {
    if (m.cmd === 'exit') process.exit(0);
    void (async () => {
      const gc = (globalThis as { gc?: () => void }).gc;
      if (gc === undefined) throw new Error('run the server with --expose-gc');
      // Until the heap settles (at least twice, at most 10 times), with a turn of the event loop
      // between: finalizers and weak callbacks run in between, and what they release (the web
      // Request/Response objects of fetch-style servers hold FinalizationRegistry entries) is
      // only collected by a later GC.
      let last = Infinity;
      for (let round = 0; round < 10; round++) {
        gc();
        await new Promise((r) => setImmediate(r));
        const used = process.memoryUsage().heapUsed;
        if (round >= 1 && Math.abs(last - used) < 16 * 1024) break;
        last = used;
      }
      const mu = process.memoryUsage();
      send({ type: 'memory', heapUsed: mu.heapUsed, heapTotal: mu.heapTotal, rss: mu.rss, external: mu.external, sessions: sessions() });
    })();
  });
  process.on('disconnect', () => process.exit(0));
  send({ type: 'listening', url });
}
