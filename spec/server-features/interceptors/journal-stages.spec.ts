// Interceptors in the server journal (issue 29: "an interceptor is a stage of the request's path,
// visible in its journal entries"): a 2026-07-28 request's `state` entry names the stages it went
// through and the one that answered without `next`; a legacy session's journal gets one `stages`
// entry per request that met a stage; none when no stage ran, in both eras. `inspect` shows them.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StagesEntry, StateEntry } from '../../../lib/journal/entry.js';
import { replay } from '../../../lib/journal/replay.js';
import type { McpServer } from '../../../lib/mcp-server.js';
import type { ServerSession } from '../../../lib/server.js';
import { runInProcess } from '../../cli/helpers.js';
import { makeServer } from '../helpers.js';
import { connect, until } from './harness.js';

/** A server with two stages: `audit` passes everything on, `cache` answers `count` itself. */
function staged(options: { journal: true; stages: boolean }): McpServer {
  const { mcp } = makeServer({ journal: options.journal });
  mcp.registerTool('echo', {}, () => 'echo');
  mcp.registerTool('count', {}, () => 'count');
  if (!options.stages) return mcp;
  mcp.use(async function audit(_req, next) {
    return next();
  });
  mcp.use(async function cache(req, next) {
    if (req.method === 'tools/call' && req.params?.name === 'count') return { content: [{ type: 'text', text: 'cached' }] };
    return next();
  });
  return mcp;
}

describe('interceptors in the server journal', () => {
  it('2026-07-28: each request\'s state entry names its stages and the short-circuit, and inspect shows them', async () => {
    const { mcp } = makeServer({ journal: true });
    mcp.registerTool('echo', {}, () => 'echo');
    mcp.registerTool('count', {}, () => 'count');
    mcp.use(async function audit(_req, next) {
      return next();
    });
    mcp.use(async function cache(req, next) {
      if (req.method === 'tools/call' && req.params?.name === 'count') return { content: [{ type: 'text', text: 'cached' }] };
      return next();
    });
    const c = await connect(mcp, 'modern', 'stdio');
    const dir = mkdtempSync(join(tmpdir(), 'stages-'));
    try {
      await c.client.callTool({ name: 'echo', arguments: {} });
      await c.client.callTool({ name: 'count', arguments: {} });
      const states = () => mcp.journal!.entries.filter((e): e is StateEntry => e.kind === 'state');
      await until(() => states().length >= 2, 'two state entries');
      const [echo, count] = states().slice(-2) as [StateEntry, StateEntry];
      expect([echo.stages, echo.shortCircuitBy]).to.deep.equal([['audit', 'cache'], undefined]);
      expect([count.stages, count.shortCircuitBy]).to.deep.equal([['audit', 'cache'], 'cache']);
      const file = join(dir, 'server.jsonl');
      writeFileSync(file, mcp.journal!.toJSONL());
      const run = await runInProcess(['inspect', file, '--no-color']);
      expect(run.code, run.stderr).to.equal(0);
      expect(run.stdout).to.match(/state +request \d+ answered via "audit" > "cache"\n/);
      expect(run.stdout).to.match(/state +request \d+ answered via "audit" > "cache", short-circuited by "cache"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await c.close();
    }
  });

  it('legacy with journal: true: one stages entry per request that met a stage, shown by inspect; the journal still replays', async () => {
    const mcp = staged({ journal: true, stages: true });
    const sessions: ServerSession[] = [];
    mcp.sessions$.subscribe((s) => sessions.push(s));
    const c = await connect(mcp, 'legacy', 'stdio');
    const dir = mkdtempSync(join(tmpdir(), 'stages-'));
    try {
      await c.client.callTool({ name: 'echo', arguments: {} });
      await c.client.callTool({ name: 'count', arguments: {} });
      const journal = sessions[0]!.journal!;
      const stages = () => journal.entries.filter((e): e is StagesEntry => e.kind === 'stages');
      await until(() => stages().filter((e) => e.method === 'tools/call').length === 2, 'two stages entries');
      const calls = stages().filter((e) => e.method === 'tools/call');
      expect(calls.map((e) => [e.stages, e.shortCircuitBy])).to.deep.equal([
        [['audit', 'cache'], undefined],
        [['audit', 'cache'], 'cache'],
      ]);
      // Whatever request met the stages met both.
      expect(stages().every((e) => e.stages.join() === 'audit,cache')).to.equal(true);
      const file = join(dir, 'session.jsonl');
      writeFileSync(file, journal.toJSONL());
      const run = await runInProcess(['inspect', file, '--no-color']);
      expect(run.code, run.stderr).to.equal(0);
      expect(run.stdout).to.match(/stages +tools\/call #\S+ via "audit" > "cache"\n/);
      expect(run.stdout).to.match(/stages +tools\/call #\S+ via "audit" > "cache", short-circuited by "cache"/);
      const again = await replay(journal.toJSONL(), { server: () => staged({ journal: true, stages: true }) });
      expect(again.firstDifference, JSON.stringify(again.firstDifference)).to.equal(undefined);
      expect(again.matches).to.equal(true);
      expect(again.compared).to.be.greaterThanOrEqual(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await c.close();
    }
  });

  it('legacy: no stages entry when no interceptor is registered', async () => {
    const mcp = staged({ journal: true, stages: false });
    const sessions: ServerSession[] = [];
    mcp.sessions$.subscribe((s) => sessions.push(s));
    const c = await connect(mcp, 'legacy', 'stdio');
    try {
      await c.client.callTool({ name: 'echo', arguments: {} });
      const journal = sessions[0]!.journal!;
      await until(() => journal.entries.filter((e) => e.kind === 'out').length >= 2, 'the answer journaled');
      expect(journal.entries.filter((e) => e.kind === 'stages')).to.deep.equal([]);
    } finally {
      await c.close();
    }
  });

  it('2026-07-28: no stages in the journal when no interceptor is registered', async () => {
    const { mcp } = makeServer({ journal: true });
    mcp.registerTool('echo', {}, () => 'echo');
    const c = await connect(mcp, 'modern', 'stdio');
    try {
      await c.client.callTool({ name: 'echo', arguments: {} });
      await until(() => mcp.journal!.entries.some((e) => e.kind === 'state'), 'a state entry');
      for (const e of mcp.journal!.entries) expect(e).to.not.have.any.keys('stages', 'shortCircuitBy');
    } finally {
      await c.close();
    }
  });
});
