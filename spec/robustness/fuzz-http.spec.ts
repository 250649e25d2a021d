// Seeded fuzzing of a real Streamable HTTP server process (examples/everything.ts on a free
// port). On failure the seed is printed: `FUZZ_SEED=<seed>` reproduces it.
import { expect } from 'chai';
import type { Revision } from '../../lib/protocol/revisions.js';
import { fuzzHttpSession, startHttpServer, type HttpServerProcess } from './fuzz/http-run.js';
import { fuzzSeed } from './fuzz/prng.js';

const COUNT = Number(process.env.FUZZ_CASES ?? 200);

describe('robustness: fuzzing a Streamable HTTP server process', function () {
  this.timeout(90_000);
  let server: HttpServerProcess;

  before(async () => {
    server = await startHttpServer();
  });
  after(async () => {
    await server?.stop();
  });

  for (const revision of ['2025-03-26', '2025-06-18', '2025-11-25'] as Revision[]) {
    it(`[HTTP-010] [BASE-002] ${revision}: ${COUNT} seeded POSTs, one answer per request with the spec's code, the process stays up`, async () => {
      const seed = fuzzSeed();
      const run = await fuzzHttpSession(server.url, { seed, revision, count: COUNT });
      const summary = `seed ${seed} (FUZZ_SEED=${seed} reproduces), ${run.cases} cases, statuses ${JSON.stringify(run.statuses)}: ${JSON.stringify(run.byFamily)}`;
      expect(run.failures, summary).to.deep.equal([]);
      expect(run.alive, summary).to.equal(true);
      expect(server.child.exitCode, 'the server process').to.equal(null);
    });
  }
});
