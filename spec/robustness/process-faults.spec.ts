// Process faults of a stdio server, seen from our Client as a user holds it. The transport's own
// specs cover the mechanics (spec/streams/stdio-client.spec.ts: escalation on a simulated
// clock, stderr drained with nobody listening, non-JSON lines passed on) and
// spec/session/stdio.spec.ts a crash with its exit code and stderr tail; here each fault meets
// the whole stack: requests keep being answered, the fault is reported, nothing is left running.
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { Client, type Diagnostic } from '../../lib/entries/client.js';
import { ConnectionClosedError } from '../../lib/errors.js';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import { CLIENT_INFO } from '../helpers/raw-peer.js';
import { tsArgs } from '../helpers/ts-child.js';

const crashy = fileURLToPath(new URL('../fixtures/session/crashy-server.ts', import.meta.url));
const unruly = fileURLToPath(new URL('../fixtures/session/unruly-server.ts', import.meta.url));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function echoes(client: Client, count: number): Promise<string[]> {
  const texts = await Promise.all(
    Array.from({ length: count }, (_, i) => client.callTool('echo', { text: `call ${i}` }).then((r) => (r.content as { text: string }[])[0]!.text)),
  );
  return texts;
}

describe('robustness: process faults of a stdio server', function () {
  this.timeout(30_000);

  it('killed (SIGKILL) with requests in flight: they fail at once, naming the signal, not after their timeout', async () => {
    const transport = createStdioClientTransport({ command: process.execPath, args: [...tsArgs(crashy)], stderr: 'pipe' });
    // A ten-minute request timeout: only the process's end can settle these within the test.
    const client = new Client({ era: 'legacy', info: CLIENT_INFO, timeout: 600_000 });
    await client.connect(transport);
    const inFlight = Array.from({ length: 5 }, () => client.request('tools/call', { name: 'slow' }).then(() => null, (e: unknown) => e as Error));
    // Answered after the five were written, so they reached the server (in either era).
    await client.request('tools/call', { name: 'echo' });
    process.kill(transport.pid!, 'SIGKILL');
    const errors = await Promise.all(inFlight);
    for (const err of errors) {
      expect(err).to.be.instanceOf(ConnectionClosedError);
      expect(err!.message).to.match(/SIGKILL/);
    }
    expect(client.currentPhase).to.equal('failed');
    // A later call fails at once too, with the same story.
    const later = await client.request('ping').then(() => null, (e: unknown) => e as Error);
    expect(later).to.be.instanceOf(Error);
  });

  it('prints garbage on stdout between its answers (log text, a cut-off frame, an answer nobody asked for): every call is answered, the garbage reported', async () => {
    const client = new Client({ era: 'legacy', info: CLIENT_INFO });
    const diags: Diagnostic[] = [];
    client.diagnostics$.subscribe((d) => diags.push(d));
    await client.connect(createStdioClientTransport({ command: process.execPath, args: [...tsArgs(unruly), 'garbage'] }));
    try {
      expect(await echoes(client, 50)).to.deep.equal(Array.from({ length: 50 }, (_, i) => `call ${i}`));
      expect(client.currentPhase).to.equal('operating');
      expect(diags.filter((d) => d.kind === 'invalid-frame').length, 'log text and cut-off frames').to.be.at.least(100);
      expect(diags.filter((d) => d.kind === 'unknown-response').length, 'answers to requests nobody sent').to.equal(50);
    } finally {
      await client.close();
    }
  });

  it('floods stderr (64 KiB a millisecond) with nobody reading it: calls are still answered', async () => {
    const transport = createStdioClientTransport({ command: process.execPath, args: [...tsArgs(unruly), 'stderr-flood'], stderr: 'pipe' });
    const client = new Client({ era: 'legacy', info: CLIENT_INFO });
    await client.connect(transport);
    try {
      // Long enough for megabytes of stderr to pass: a pipe left unread fills in 64 KiB.
      for (let round = 0; round < 5; round++) {
        expect(await echoes(client, 20)).to.have.length(20);
        await new Promise((r) => setTimeout(r, 100));
      }
      // The flood did come through (each kept line is cut short).
      expect(transport.stderrTail.at(-1)).to.match(/^e{100}/);
    } finally {
      await client.close();
    }
  });

  it('ignores the end of its stdin and SIGTERM: close() still ends it (SIGKILL after the grace periods) and returns', async () => {
    const transport = createStdioClientTransport({ command: process.execPath, args: [...tsArgs(unruly), 'stubborn'], stderr: 'pipe', closeTimeout: 300, termTimeout: 300 });
    const client = new Client({ era: 'legacy', info: CLIENT_INFO });
    await client.connect(transport);
    expect(await echoes(client, 3)).to.have.length(3);
    const pid = transport.pid!;
    const started = Date.now();
    await client.close();
    expect(Date.now() - started, 'close() took').to.be.below(10_000);
    expect(alive(pid), 'the server process').to.equal(false);
    expect(transport.stderrTail).to.include('stubborn: SIGTERM ignored');
  });
});
