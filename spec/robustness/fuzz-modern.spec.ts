// Seeded fuzzing of the 2026-07-28 (modern, stateless) era of a real server process, over
// Streamable HTTP and stdio. On failure the seed is printed: `FUZZ_SEED=<seed>` reproduces it.
import { expect } from 'chai';
import { fuzzModernHttp, startHttpServer, type HttpServerProcess } from './fuzz/http-run.js';
import { modernCases } from './fuzz/modern-cases.js';
import { fuzzSeed } from './fuzz/prng.js';
import { fuzzStdioServer } from './fuzz/stdio-run.js';

const COUNT = Number(process.env.FUZZ_CASES ?? 200);
const UNSUPPORTED_VERSION = -32022;

describe('robustness: fuzzing the 2026-07-28 era', function () {
  this.timeout(90_000);

  describe('over Streamable HTTP', () => {
    let server: HttpServerProcess;
    before(async () => {
      server = await startHttpServer();
    });
    after(async () => {
      await server?.stop();
    });

    it(`[BASE-002] ${COUNT} seeded stateless POSTs (envelope, headers, version, MRTR fields, depth, removed methods): one answer per request with the spec's code, no 5xx, the process stays up`, async () => {
      const seed = fuzzSeed();
      const run = await fuzzModernHttp(server.url, modernCases(seed, COUNT), seed);
      const summary = `seed ${seed} (FUZZ_SEED=${seed} reproduces), ${run.cases} cases, statuses ${JSON.stringify(run.statuses)}: ${JSON.stringify(run.byFamily)}`;
      expect(run.failures, summary).to.deep.equal([]);
      expect(run.alive, summary).to.equal(true);
      expect(run.byFamily, summary).to.include.keys('header-mismatch', 'envelope', 'mrtr-fields');
      expect(server.child.exitCode, 'the server process').to.equal(null);
    });
  });

  it(`[BASE-002] [BASE-011] over stdio: ${COUNT} seeded modern lines with no initialize: one answer per request with the spec's code, stdout only frames, still up`, async () => {
    const seed = fuzzSeed();
    // No headers on stdio: the header cases do not apply, and a version we do not speak is -32022 alone.
    const cases = modernCases(seed, COUNT)
      .filter((c) => c.family !== 'header-mismatch')
      .map((c) => (c.family === 'unsupported-version' && c.expect.kind === 'answer' ? { ...c, expect: { ...c.expect, codes: [UNSUPPORTED_VERSION] } } : c));
    const run = await fuzzStdioServer({ seed, revision: '2025-11-25', count: 0, hugeLines: 0, statelessCases: cases });
    const summary = `seed ${seed} (FUZZ_SEED=${seed} reproduces), ${run.cases} cases: ${JSON.stringify(run.byFamily)}\nstderr: ${run.stderrTail}`;
    expect(run.failures, summary).to.deep.equal([]);
    expect(run.alive, summary).to.equal(true);
  });
});
