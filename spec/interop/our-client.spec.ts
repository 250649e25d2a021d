// OUR Client + stdio client transport against the official SDK's server
// (spec/fixtures/interop/sdk-server.ts) and, as a baseline, against our own server
// (spec/fixtures/interop/ours-server.ts). Both fixtures speak every revision; our client picks one
// with `supportedVersions: [rev]`.
import { expect } from 'chai';
import process from 'node:process';
import { lastValueFrom, toArray } from 'rxjs';
import { Client, type Progress } from '../../lib/entries/client.js';
import { McpError, RequestCancelledError, RequestTimeoutError } from '../../lib/errors.js';
import { createStdioClientTransport, type StdioClientTransport } from '../../streams/stdio-client.js';
import type { TransportState } from '../../streams/transport.js';
import { fixtureCommand, firstText, LineLog, OURS_SERVER, REVISIONS, SDK_SERVER } from './helpers.js';

interface Started {
  client: Client;
  transport: StdioClientTransport;
  stderr: LineLog;
  lastState: () => TransportState | undefined;
}

async function start(fixture: string, supportedVersions?: string[]): Promise<Started> {
  const transport = createStdioClientTransport({ ...fixtureCommand(fixture), stderr: 'pipe' });
  const stderr = new LineLog();
  transport.stderr$.subscribe((line) => stderr.push(line));
  let last: TransportState | undefined;
  transport.state$.subscribe((s) => (last = s));
  // initialize at each session revision: the legacy era.
  const client = new Client({ era: 'legacy', info: { name: 'ours-interop-client', version: '0.0.1' }, ...(supportedVersions ? { supportedVersions } : {}) });
  const s = { client, transport, stderr, lastState: () => last };
  started.push(s);
  await client.connect(transport);
  return s;
}

const started: Started[] = [];

/** Close the session (stdin, then SIGTERM/SIGKILL on the transport's schedule); kill if still alive. */
async function stop(s: Started): Promise<void> {
  const pid = s.transport.pid;
  await s.client.close();
  if (pid !== undefined && s.lastState()?.phase !== 'closed' && s.lastState()?.phase !== 'failed') {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

async function rejectionOf(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}

const call = (name: string, args: Record<string, unknown> = {}) => ({ name, arguments: args });

const SERVERS = [
  { label: 'sdk server', fixture: SDK_SERVER, serverInfo: { name: 'sdk-interop-server', version: '2.0.0' }, stripsOldMessage: false },
  { label: 'our server', fixture: OURS_SERVER, serverInfo: { name: 'ours-interop-server', version: '1.0.0' }, stripsOldMessage: true },
] as const;

for (const server of SERVERS) {
  const name = (what: string) => `our client → ${server.label}: ${what}`;

  describe(`interop: our client → ${server.label} (stdio)`, function () {
    afterEach(async () => {
      await Promise.all(started.splice(0).map(stop));
    });

    for (const rev of REVISIONS) {
      it(name(`initialize at ${rev}, ping, echo, progress, close`), async () => {
        const s = await start(server.fixture, [rev]);
        expect(s.client.protocolVersion).to.equal(rev);
        expect(s.client.serverInfo).to.deep.equal(server.serverInfo);
        expect(s.client.serverCapabilities).to.have.property('tools');
        if (server.fixture === OURS_SERVER) {
          const who = JSON.parse(firstText(await s.client.request('tools/call', call('whoami'))));
          expect(who).to.deep.equal({ protocolVersion: rev, clientInfo: { name: 'ours-interop-client', version: '0.0.1' } });
        }

        await s.client.ping();
        expect(firstText(await s.client.request('tools/call', call('echo', { text: `hi ${rev}` })))).to.equal(`hi ${rev}`);

        const seen: Progress[] = [];
        const result = await s.client.request('tools/call', call('slow'), { onprogress: (p) => seen.push(p) });
        expect(firstText(result)).to.equal('done');
        expect(seen.map((p) => [p.progress, p.total])).to.deep.equal([[1, 3], [2, 3], [3, 3]]);
        const withMessage = !(server.stripsOldMessage && rev === '2024-11-05');
        expect(seen.map((p) => p.message)).to.deep.equal(withMessage ? ['step 1', 'step 2', 'step 3'] : [undefined, undefined, undefined]);

        // Closing stdin is enough: the server exits by itself, code 0.
        started.splice(started.indexOf(s), 1);
        await s.client.close();
        expect(s.lastState()).to.include({ phase: 'closed' });
        expect(s.lastState()!.details).to.include({ code: 0, signal: null });
      });
    }

    describe('with one session at the default revisions', () => {
      let s: Started;
      before(async () => {
        s = await start(server.fixture);
        started.splice(started.indexOf(s), 1);
      });
      after(async () => {
        await stop(s);
      });

      it(name('initialize lands on 2025-11-25 and reports serverInfo'), () => {
        expect(s.client.protocolVersion).to.equal('2025-11-25');
        expect(s.client.serverInfo).to.deep.equal(server.serverInfo);
        expect(s.client.currentPhase).to.equal('operating');
      });

      it(name('ping'), async () => {
        await s.client.ping();
      });

      it(name("request('tools/list') and request('tools/call') echo"), async () => {
        const { tools } = (await s.client.request('tools/list')) as { tools: { name: string }[] };
        expect(tools.map((t) => t.name)).to.include.members(['echo', 'slow', 'hang', 'release']);
        expect(await s.client.request('tools/call', call('echo', { text: 'hello' }))).to.deep.equal({ content: [{ type: 'text', text: 'hello' }] });
      });

      it(name('an error thrown by the handler rejects with an McpError carrying its code'), async () => {
        const err = await rejectionOf(s.client.request('tools/call', call('nope')));
        expect(err).to.be.instanceOf(McpError);
        expect((err as McpError).code).to.equal(-32602);
        expect(err.message).to.include('Unknown tool: nope');
      });

      it(name('progress through onprogress, all of it before the result'), async () => {
        const seen: Progress[] = [];
        let seenAtResult = -1;
        const result = await s.client
          .request('tools/call', call('slow'), { onprogress: (p) => seen.push(p) })
          .then((r) => ((seenAtResult = seen.length), r));
        expect(firstText(result)).to.equal('done');
        expect(seenAtResult).to.equal(3);
        expect(seen).to.deep.equal([1, 2, 3].map((i) => ({ progress: i, total: 3, message: `step ${i}` })));
      });

      it(name('progress through requestWithProgress(...).progress$'), async () => {
        const { result, progress$ } = s.client.requestWithProgress('tools/call', call('slow', { gate: true }));
        const all = lastValueFrom(progress$.pipe(toArray()));
        const firstThree = new Promise<void>((resolve) => {
          let n = 0;
          progress$.subscribe(() => ++n === 3 && resolve());
        });
        await firstThree;
        await s.client.request('tools/call', call('release'));
        expect(firstText(await result)).to.equal('done');
        expect((await all).map((p) => p.progress)).to.deep.equal([1, 2, 3]);
      });

      it(name("aborting our signal cancels the request, and the server's handler sees its signal aborted"), async () => {
        const from = s.stderr.lines.length;
        const ac = new AbortController();
        const pending = s.client.request('tools/call', call('hang'), { signal: ac.signal });
        await s.stderr.waitFor(/^hang started /, from);
        ac.abort('user gave up');
        const err = await rejectionOf(pending);
        expect(err).to.be.instanceOf(RequestCancelledError);
        expect((err as RequestCancelledError).method).to.equal('tools/call');
        expect(await s.stderr.waitFor(/^aborted /, from)).to.equal('aborted user gave up');
        if (server.fixture === SDK_SERVER) {
          expect(JSON.parse(firstText(await s.client.request('tools/call', call('last-abort'))))).to.equal('user gave up');
        }
        await s.client.ping();
      });

      it(name('our timeout rejects with RequestTimeoutError naming method and ms, and cancels on the server'), async () => {
        const from = s.stderr.lines.length;
        const err = await rejectionOf(s.client.request('tools/call', call('hang'), { timeout: 200 }));
        expect(err).to.be.instanceOf(RequestTimeoutError);
        const timeout = err as RequestTimeoutError;
        expect(timeout.method).to.equal('tools/call');
        expect(timeout.kind).to.equal('idle');
        expect(timeout.elapsedMs).to.be.a('number').and.to.be.at.least(190);
        expect(timeout.message).to.match(/^Request "tools\/call" timed out after \d+ ms/);
        expect(timeout.message).to.include(`${timeout.elapsedMs} ms`);
        // The server's handler saw its signal aborted with the reason our notifications/cancelled gave.
        const aborted = await s.stderr.waitFor(/^aborted /, from);
        expect(aborted).to.match(/^aborted .*timed out after \d+ ms/i);
        if (server.fixture === SDK_SERVER) {
          expect(JSON.parse(firstText(await s.client.request('tools/call', call('last-abort'))))).to.equal(aborted.slice('aborted '.length));
        }
        await s.client.ping();
      });
    });
  });
}
