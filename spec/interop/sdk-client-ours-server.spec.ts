// The official SDK's Client + StdioClientTransport against OUR server (spec/fixtures/interop/ours-server.ts).
//
// The SDK client (1.32.2) has no option for the revisions it offers: it always sends its latest,
// 2025-11-25, and accepts any revision it knows in the answer. To land on an older revision the
// fixture server is told to speak only that one (env INTEROP_VERSIONS), so our server answers it
// and the SDK client goes along.
import { expect } from 'chai';
import process from 'node:process';
import { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, McpError, type JSONRPCMessage, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { fixtureCommand, firstText, LineLog, OURS_SERVER, REVISIONS } from './helpers.js';

interface Started {
  client: Client;
  transport: StdioClientTransport;
  stderr: LineLog;
  /** Every message the SDK client received, in order. */
  received: JSONRPCMessage[];
}

const started: Started[] = [];

/** Spawn our server and connect the SDK client; `perTest` ones are stopped after each test. */
async function start(env: Record<string, string> = {}, perTest = true): Promise<Started> {
  const transport = new StdioClientTransport({ ...fixtureCommand(OURS_SERVER), env, stderr: 'pipe' });
  // With stderr: 'pipe' the SDK transport hands out a PassThrough before the child is spawned.
  if (!(transport.stderr instanceof Readable)) throw new Error('expected a readable stderr');
  const stderr = LineLog.of(transport.stderr);
  const received: JSONRPCMessage[] = [];
  // Protocol.connect chains to a handler already set, so this sees every inbound message.
  transport.onmessage = (m) => received.push(m);
  const client = new Client({ name: 'sdk-interop-client', version: '9.9.9' }, { capabilities: {} });
  const s = { client, transport, stderr, received };
  if (perTest) started.push(s);
  await client.connect(transport);
  return s;
}

async function stop(s: Started): Promise<void> {
  const pid = s.transport.pid;
  await s.client.close();
  if (pid !== null) {
    try {
      process.kill(pid, 0);
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone, as it should be
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

/**
 * Call `slow` with progress, gated: it is released only once the SDK client has delivered all three
 * progress notifications. (Ungated, progress written right before the result can be lost by the SDK
 * client: it dispatches notifications a microtask late but responses at once, and the response
 * retires the progress handler. typescript-sdk issue #2580.)
 */
async function slowWithProgress(s: Started): Promise<{ result: unknown; seen: Progress[] }> {
  const seen: Progress[] = [];
  let allSeen!: () => void;
  const three = new Promise<void>((resolve) => (allSeen = resolve));
  const call = s.client.callTool({ name: 'slow', arguments: { gate: true } }, undefined, {
    onprogress: (p) => {
      seen.push(p);
      if (seen.length === 3) allSeen();
    },
  });
  await Promise.race([three, call]);
  await s.client.callTool({ name: 'release', arguments: {} });
  return { result: await call, seen };
}

function initializeResult(s: Started): { protocolVersion: string; serverInfo: unknown; capabilities: Record<string, unknown> } {
  const r = s.received.find((m) => 'id' in m && 'result' in m && (m.result as { protocolVersion?: unknown }).protocolVersion !== undefined);
  if (!r || !('result' in r)) throw new Error('no initialize result seen');
  return r.result as never;
}

describe('interop: sdk client → our server (stdio)', function () {
  afterEach(async () => {
    await Promise.all(started.splice(0).map(stop));
  });

  for (const rev of REVISIONS) {
    it(`sdk client → our server: initialize at ${rev}, ping, echo, progress`, async () => {
      const s = await start({ INTEROP_VERSIONS: rev });
      const init = initializeResult(s);
      expect(init.protocolVersion).to.equal(rev);
      expect(s.client.getServerVersion()).to.deep.equal({ name: 'ours-interop-server', version: '1.0.0' });
      expect(s.client.getServerCapabilities()).to.have.property('tools');

      // Our server saw the same revision and the SDK's clientInfo.
      const who = JSON.parse(firstText(await s.client.callTool({ name: 'whoami', arguments: {} })));
      expect(who).to.deep.equal({ protocolVersion: rev, clientInfo: { name: 'sdk-interop-client', version: '9.9.9' } });

      expect(await s.client.ping()).to.deep.equal({});
      expect(firstText(await s.client.callTool({ name: 'echo', arguments: { text: `hello ${rev}` } }))).to.equal(`hello ${rev}`);

      const { result, seen } = await slowWithProgress(s);
      expect(firstText(result)).to.equal('done');
      // progress.message exists from 2025-03-26 on: our server drops it at 2024-11-05.
      expect(seen).to.deep.equal(
        [1, 2, 3].map((i) => (rev === '2024-11-05' ? { progress: i, total: 3 } : { progress: i, total: 3, message: `step ${i}` })),
      );
    });
  }

  describe('with one server speaking every revision', () => {
    let s: Started;
    before(async () => {
      s = await start({}, false);
    });
    after(async () => {
      await stop(s);
    });

    it('sdk client → our server: initialize lands on the latest revision, 2025-11-25', () => {
      expect(initializeResult(s).protocolVersion).to.equal('2025-11-25');
    });

    it('sdk client → our server: ping', async () => {
      expect(await s.client.ping()).to.deep.equal({});
    });

    it('sdk client → our server: listTools and callTool echo', async () => {
      const { tools } = await s.client.listTools();
      expect(tools.map((t) => t.name)).to.deep.equal(['echo', 'slow', 'hang', 'late-signal', 'release', 'whoami']);
      expect(await s.client.callTool({ name: 'echo', arguments: { text: 'hi' } })).to.deep.equal({ content: [{ type: 'text', text: 'hi' }] });
    });

    it('sdk client → our server: an error from our handler reaches the SDK as an McpError', async () => {
      const err = await rejectionOf(s.client.callTool({ name: 'nope', arguments: {} }));
      expect(err).to.be.instanceOf(McpError);
      expect((err as McpError).code).to.equal(ErrorCode.InvalidParams);
      expect(err.message).to.include('Unknown tool: nope');
    });

    it('sdk client → our server: progress through onprogress', async () => {
      const { result, seen } = await slowWithProgress(s);
      expect(firstText(result)).to.equal('done');
      expect(seen.map((p) => p.progress)).to.deep.equal([1, 2, 3]);
      expect(seen.map((p) => p.message)).to.deep.equal(['step 1', 'step 2', 'step 3']);
    });

    it("sdk client → our server: aborting the SDK's signal aborts our handler's signal", async () => {
      const from = s.stderr.lines.length;
      const ac = new AbortController();
      const call = s.client.callTool({ name: 'hang', arguments: {} }, undefined, { signal: ac.signal });
      await s.stderr.waitFor(/^hang started /, from);
      ac.abort('user gave up');
      const err = await rejectionOf(call);
      expect(err).to.be.instanceOf(McpError);
      expect(err.message).to.include('user gave up');
      expect(await s.stderr.waitFor(/^aborted /, from)).to.equal('aborted user gave up');
      // The session goes on.
      expect(firstText(await s.client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).to.equal('still here');
    });

    it("sdk client → our server: a handler that reads ctx.signal after the cancellation arrived sees the SDK's reason", async () => {
      const from = s.stderr.lines.length;
      const ac = new AbortController();
      const call = s.client.callTool({ name: 'late-signal', arguments: {} }, undefined, { signal: ac.signal });
      await s.stderr.waitFor(/^late-signal started /, from);
      ac.abort('user gave up');
      expect(await rejectionOf(call)).to.be.instanceOf(McpError);
      // notifications/cancelled goes down the pipe before this request, so our server has it by now.
      await s.client.callTool({ name: 'release', arguments: {} });
      expect(await s.stderr.waitFor(/^late-signal (aborted|not aborted)/, from)).to.equal('late-signal aborted user gave up');
    });

    it("sdk client → our server: the SDK's timeout cancels our handler", async () => {
      const from = s.stderr.lines.length;
      const err = await rejectionOf(s.client.callTool({ name: 'hang', arguments: {} }, undefined, { timeout: 200 }));
      expect(err).to.be.instanceOf(McpError);
      expect((err as McpError).code).to.equal(ErrorCode.RequestTimeout);
      expect(await s.stderr.waitFor(/^aborted /, from)).to.match(/^aborted .*Request timed out/);
      expect(await s.client.ping()).to.deep.equal({});
    });
  });
});
