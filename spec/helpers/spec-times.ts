/**
 * A mocha reporter that times the spec suite: the dot reporter's output, plus (at the end) a JSON
 * file with each spec file's wall time (its top-level suites, `before`/`after` hooks included) and
 * each test's duration, slowest first. It is how CI's spec time is found and kept in check.
 *
 * Usage: `npx mocha --reporter spec/helpers/spec-times.ts 'spec/**\/*.spec.ts'`; the JSON goes to
 * `$SPEC_TIMES` (default `results/spec-times.json`, gitignored). With `--parallel` the file times
 * are the workers' own (they overlap), the wall total is the run's.
 */
import Mocha from 'mocha';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';

const { EVENT_RUN_BEGIN, EVENT_RUN_END, EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_TEST_PASS, EVENT_TEST_FAIL } =
  Mocha.Runner.constants;

interface FileTime { ms: number; tests: number; failed: number }

class SpecTimes extends Mocha.reporters.Dot {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const files = new Map<string, FileTime>();
    const tests: Array<{ file: string; title: string; ms: number }> = [];
    const failures: Array<{ file: string; title: string; error: string }> = [];
    const started = new Map<Mocha.Suite, number>();
    let runStart = 0;
    const fileOf = (file: string | undefined): FileTime => {
      const key = file === undefined ? '(none)' : relative(process.cwd(), file);
      let entry = files.get(key);
      if (entry === undefined) files.set(key, (entry = { ms: 0, tests: 0, failed: 0 }));
      return entry;
    };
    // A file's top-level suites are the root's children; their begin..end spans its hooks and tests.
    // (Under --parallel the events come replayed from the workers, parents not linked: there only the
    // wall total means anything.)
    const topLevel = (suite: Mocha.Suite): boolean => !suite.root && (suite.parent == null || suite.parent.root);
    runner.on(EVENT_RUN_BEGIN, () => { runStart = performance.now(); });
    runner.on(EVENT_SUITE_BEGIN, (suite: Mocha.Suite) => {
      if (topLevel(suite)) started.set(suite, performance.now());
    });
    runner.on(EVENT_SUITE_END, (suite: Mocha.Suite) => {
      const t0 = started.get(suite);
      if (t0 !== undefined) fileOf(suite.file).ms += performance.now() - t0;
    });
    const onTest = (failed: boolean) => (test: Mocha.Test, error?: Error): void => {
      const entry = fileOf(test.file);
      if (failed) failures.push({ file: relative(process.cwd(), test.file ?? ''), title: test.fullTitle(), error: String(error?.message ?? error).slice(0, 500) });
      entry.tests += 1;
      if (failed) entry.failed += 1;
      tests.push({ file: relative(process.cwd(), test.file ?? ''), title: test.fullTitle(), ms: test.duration ?? 0 });
    };
    runner.on(EVENT_TEST_PASS, onTest(false));
    runner.on(EVENT_TEST_FAIL, onTest(true));
    const write = (): void => {
      const out = process.env.SPEC_TIMES ?? 'results/spec-times.json';
      const byFile = [...files].map(([file, t]) => ({ file, ms: Math.round(t.ms), tests: t.tests, failed: t.failed }))
        .sort((a, b) => b.ms - a.ms);
      const sumMs = byFile.reduce((s, f) => s + f.ms, 0);
      tests.sort((a, b) => b.ms - a.ms);
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, JSON.stringify({
        node: process.version,
        wallMs: Math.round(performance.now() - runStart),
        sumOfFilesMs: sumMs,
        failures,
        files: byFile,
        slowestTests: tests.slice(0, 200),
      }, null, 1));
    };
    // Written as it goes too (at most every 5 s), so a long run can be read before it ends.
    let lastWrite = 0;
    runner.on(EVENT_SUITE_END, () => {
      if (performance.now() - lastWrite > 5000) {
        lastWrite = performance.now();
        write();
      }
    });
    runner.once(EVENT_RUN_END, write);
  }
}

export default SpecTimes;
