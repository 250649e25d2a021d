// `npm run demo:cluster` (scripts/demo-cluster.ts, from the sources): redis-server, three demo
// server processes and HAProxy on 127.0.0.1; it prints the front URL and every pid, serves a
// session through the front, and SIGTERM leaves no process behind.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { callTool, post } from '../fixtures/http-server/raw.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm run demo:cluster', function () {
  this.timeout(60_000);

  it('starts redis-server, three servers and HAProxy, serves through the front, and SIGTERM stops every process', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo-cluster.ts', '--source', '--quiet'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 45_000;
      while (!out.includes('Ctrl-C stops everything')) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`demo:cluster did not come up:\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const front = /MCP endpoint[^\n]*?(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out)![1]!;
      const pids = [...out.matchAll(/pid (\d+)/g)].map((m) => Number(m[1]));
      expect(pids).to.have.length(5);
      expect(pids.every(alive)).to.equal(true);
      const init = await post(front, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'spec', version: '1' } } });
      expect(init.status).to.equal(200);
      const sid = init.headers['mcp-session-id'] as string;
      const headers = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
      expect((await post(front, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).to.equal(202);
      // Round-robin: these land on the three processes in turn, all serve the session.
      for (let i = 1; i <= 3; i++) {
        const res = await post(front, callTool(i, 'convert_units', { value: 1, from: 'mile', to: 'kilometre' }), headers);
        expect(res.status, out).to.equal(200);
        expect(JSON.stringify(res.json.result.structuredContent)).to.contain('1.609');
      }
      child.kill('SIGTERM');
      expect(await exited).to.equal(0);
      await new Promise((r) => setTimeout(r, 200));
      expect(pids.filter(alive)).to.deep.equal([]);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
