// Interceptors in the server journal (issue 29: "an interceptor is a stage of the request's path,
// visible in its journal entries"): a 2026-07-28 request's `state` entry names the stages it went
// through and the one that answered without `next`; none when no stage ran. `inspect` shows them.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StateEntry } from '../../../lib/journal/entry.js';
import { runInProcess } from '../../cli/helpers.js';
import { makeServer } from '../helpers.js';
import { connect, until } from './harness.js';

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
