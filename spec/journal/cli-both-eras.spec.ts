// The CLI reads library journals of both eras (issue 26): `inspect` prints the timeline with
// times from the start of the recording, `replay --check` re-executes it and names a divergence.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal } from '../../lib/journal/journal.js';
import { createMemoryPair } from '../../streams/memory.js';
import { runInProcess } from '../cli/helpers.js';
import { askerServer } from '../fixtures/journal/asker.js';
import { scriptedRun } from '../fixtures/journal/scripted-run.js';

for (const era of ['modern', 'legacy'] as const) {
  describe(`mcp-actors inspect and replay --check on a library journal (${era} era)`, () => {
    let dir: string;
    let file: string;
    let journal: Journal;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'journal-cli-'));
      const mcp = askerServer();
      const [a, b] = createMemoryPair();
      await mcp.connect(a);
      ({ journal } = await scriptedRun(era, b));
      await mcp.close();
      file = join(dir, `${era}.jsonl`);
      writeFileSync(file, journal.toJSONL());
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('inspect prints each entry at its time since the start (+N ms), never the clock epoch', async () => {
      const run = await runInProcess(['inspect', file, '--no-color']);
      expect(run.code, run.stderr).to.equal(0);
      const times = [...run.stdout.matchAll(/^# *\d+ +\+(\d+\.\d+) (ms|s)\b/gm)].map((m) => Number(m[1]) * (m[2] === 's' ? 1000 : 1));
      expect(times.length).to.equal(journal.entries.length);
      // The scripted run takes a few simulated seconds of task polling: nothing near 1e9 seconds.
      expect(Math.max(...times)).to.be.lessThan(1_000_000);
      expect(times[0]).to.equal(journal.entries[0]!.t - journal.startedAt);
      if (era === 'modern') {
        expect(run.stdout).to.include('client journal (2026-07-28 requests)');
        expect(run.stdout).to.match(/answer +elicitation\/create who/);
        expect(run.stdout).to.match(/round +tools\/call ask round 1 answering: who/);
      }
    });

    it('replay --check re-executes it (exit 0), and names the entry after a changed inbound frame (exit 1)', async () => {
      const ok = await runInProcess(['replay', file, '--check', '--no-color']);
      expect(ok.code, ok.stdout + ok.stderr).to.equal(0);
      expect(ok.stdout).to.match(era === 'modern' ? /frames, input-round moves and call outcomes identical/ : /frames identical/);
      const j = Journal.parse(journal.toJSONL());
      const changed = j.entries.find((e) => e.kind === 'in' && 'frame' in e && (era === 'modern' ? JSON.stringify(e.frame).includes('hi Ada') : (e.frame as { method?: string }).method === 'elicitation/create'))!;
      const text = JSON.stringify((changed as { frame: unknown }).frame);
      (changed as { frame: unknown }).frame = JSON.parse(era === 'modern' ? text.replace('hi Ada', 'hi Eve') : text.replace(/"id":(\d+)/, '"id":"x$1"'));
      const bad = join(dir, `${era}-changed.jsonl`);
      writeFileSync(bad, j.toJSONL());
      const run = await runInProcess(['replay', bad, '--check', '--no-color']);
      expect(run.code).to.equal(1);
      if (era === 'modern') expect(run.stdout).to.include(`first divergent call outcome: #0, recorded entry #`).and.to.include(`after input entry #${changed.seq}`);
      else expect(run.stdout).to.include('first divergent frame');
    });
  });
}
