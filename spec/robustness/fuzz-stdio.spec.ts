// Seeded fuzzing of a real stdio server process (examples/everything.ts --stdio). On failure the
// seed is printed: `FUZZ_SEED=<seed> npx mocha spec/robustness/fuzz-stdio.spec.ts` reproduces it.
import { expect } from 'chai';
import type { Revision } from '../../lib/protocol/revisions.js';
import { fuzzSeed } from './fuzz/prng.js';
import { fuzzStdioServer } from './fuzz/stdio-run.js';

const COUNT = Number(process.env.FUZZ_CASES ?? 300);

describe('robustness: fuzzing a stdio server process', function () {
  this.timeout(90_000);

  // Batches exist only in 2025-03-26; the oldest and the newest revision differ most otherwise.
  for (const revision of ['2025-03-26', '2025-11-25'] as Revision[]) {
    it(`[BASE-002] [BASE-011] ${revision}: ${COUNT} seeded cases, one answer per request with the spec's code, stdout only frames, still up`, async () => {
      const seed = fuzzSeed();
      const run = await fuzzStdioServer({ seed, revision, count: COUNT });
      const summary = `seed ${seed} (FUZZ_SEED=${seed} reproduces), ${run.cases} cases: ${JSON.stringify(run.byFamily)}`;
      expect(run.failures, `${summary}\nstderr tail:\n${run.stderrTail}`).to.deep.equal([]);
      expect(run.alive, summary).to.equal(true);
      expect(run.cases).to.be.greaterThan(COUNT - 1);
    });
  }
});
