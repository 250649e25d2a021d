// Issue 32, finding 9: `npm run demo:cluster` killed with SIGKILL left its redis-server, three
// servers and HAProxy running. A real demo (sources through tsx) is started, killed with SIGKILL,
// and every pid it printed must be gone within a bounded time.
import { expect } from 'chai';
import { spawn } from 'node:child_process';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('demo:cluster killed with SIGKILL (issue 32)', function () {
  this.timeout(90_000);

  it('leaves no child running: redis-server, the three servers and HAProxy die with it', async () => {
    const demo = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo-cluster.ts', '--source', '--quiet'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PORT: '' },
    });
    let out = '';
    demo.stdout.setEncoding('utf8');
    const ready = new Promise<void>((resolve, reject) => {
      demo.stdout.on('data', (d: string) => {
        out += d;
        if (out.includes('Try: ')) resolve();
      });
      demo.once('exit', (code) => reject(new Error(`demo exited early (${code}): ${out}`)));
    });
    await ready;
    const pids = [...out.matchAll(/pid (\d+)/g)].map((m) => Number(m[1]));
    expect(pids).to.have.length(5);
    expect(pids.every(alive)).to.equal(true);

    demo.kill('SIGKILL');
    // A bounded wait on real processes (no clock to simulate here): 10 s at most.
    const deadline = Date.now() + 10_000;
    while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const left = pids.filter(alive);
    for (const pid of left) process.kill(pid, 'SIGKILL');
    expect(left, 'children still running after the demo was killed').to.deep.equal([]);
  });
});
