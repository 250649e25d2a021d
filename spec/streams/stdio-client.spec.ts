import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { filter, firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { SimulatedClock } from 'xstate';
import { TransportError } from '../../lib/errors.js';
import {
  createStdioClientTransport,
  serverLabel,
  type StdioClientTransport,
  type StdioClientTransportOptions,
} from '../../streams/stdio-client.js';
import type { RawFrame, TransportState } from '../../streams/transport.js';

const CHILD = fileURLToPath(new URL('../fixtures/transports/child.mjs', import.meta.url));

// Every spawned transport, so a failing test cannot leave a child running (and mocha hanging).
const spawned: StdioClientTransport[] = [];

function child(mode: string, more: Partial<StdioClientTransportOptions> = {}) {
  const t = createStdioClientTransport({ command: process.execPath, args: [CHILD, mode], ...more });
  spawned.push(t);
  return t;
}

const request = (id: number, method = 'echo', params: Record<string, unknown> = {}) =>
  ({ jsonrpc: '2.0', id, method, params }) as const;

/** The first inbound line parsed as a response with this id. */
function responseTo(t: { inbound$: import('rxjs').Observable<RawFrame> }, id: number) {
  return firstValueFrom(
    t.inbound$.pipe(filter((f): f is string => typeof f === 'string' && f.startsWith('{') && JSON.parse(f).id === id)),
  ).then((s) => JSON.parse(s));
}

describe('stdio client transport', function () {
  // Spawning node takes a while on a busy 2-core machine; nothing here waits on a timer.
  this.timeout(20_000);

  afterEach(() => {
    for (const t of spawned.splice(0)) {
      if (t.pid !== undefined && lastStateOf(t).phase !== 'closed' && lastStateOf(t).phase !== 'failed') {
        try {
          process.kill(t.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
  });

  it('[TRAN-002] [LIFE-116] [LIFE-117] spawns the server, exchanges frames, and closes it through stdin, waiting for it to exit', async () => {
    const t = child('echo');
    await t.start();
    expect(t.pid).to.be.a('number');
    const answer = responseTo(t, 1);
    t.send(request(1, 'echo', { hi: 'there' }));
    expect(await answer).to.deep.equal({ jsonrpc: '2.0', id: 1, result: { echo: { hi: 'there' } } });
    const phases = lastValueFrom(t.state$.pipe(toArray()));
    const inboundDone = lastValueFrom(t.inbound$.pipe(toArray()));
    await t.close();
    await inboundDone;
    const states = await phases;
    expect(states.map((s) => s.phase)).to.deep.equal(['open', 'closing', 'closed']);
    expect(states.at(-1)!.details).to.include({ code: 0, signal: null });
    expect(() => t.send(request(2))).to.throw(TransportError);
  });

  it('passes non-JSON stdout lines on as strings and keeps going', async () => {
    const t = child('noisy');
    const seen: RawFrame[] = [];
    t.inbound$.subscribe((f) => seen.push(f));
    await t.start();
    const answer = responseTo(t, 5);
    t.send(request(5));
    expect((await answer).result).to.deep.equal({ echo: {} });
    expect(seen.slice(0, 2)).to.deep.equal(['Server starting...', 'not json {']);
    expect(lastStateOf(t).phase).to.equal('open');
    await t.close();
  });

  it('goes to failed with the exit code and the stderr tail when the server crashes', async () => {
    const t = child('crash', { stderr: 'pipe' });
    const final = lastValueFrom(t.state$);
    await t.start();
    const state = await final;
    expect(state.phase).to.equal('failed');
    expect(state.error).to.be.instanceOf(TransportError);
    expect(state.error!.message).to.match(/exited with code 3/);
    expect(state.error!.message).to.include('Error: config file missing');
    const expected = { code: 3, signal: null, stderrTail: ['loading config', 'Error: config file missing'] };
    expect(state.details).to.deep.equal(expected);
    expect((state.error as TransportError).details).to.deep.equal(expected);
    expect(t.stderrTail).to.deep.equal(expected.stderrTail);
  });

  it('names the server in the crash message: its configured name, else the command line (secret-looking arguments hidden)', async () => {
    const named = child('crash', { stderr: 'pipe', name: 'calc' });
    const namedFinal = lastValueFrom(named.state$);
    await named.start();
    expect((await namedFinal).error!.message).to.match(/^MCP server "calc" \(.+child.mjs crash\) exited with code 3/);
    const unnamed = child('crash', { stderr: 'pipe' });
    const unnamedFinal = lastValueFrom(unnamed.state$);
    await unnamed.start();
    expect((await unnamedFinal).error!.message).to.match(/^MCP server ".+child.mjs crash" exited with code 3/);
    expect(serverLabel({ command: 'npx', args: ['srv', '--token', 'abc', '--api-key=xyz', 'PASSWORD=p', '--verbose'] })).to.equal(
      '"npx srv --token *** --api-key=*** PASSWORD=*** --verbose"',
    );
  });

  it('treats a server exiting with code 0 on its own as a close', async () => {
    const t = child('echo');
    await t.start();
    const final = lastValueFrom(t.state$);
    t.send({ jsonrpc: '2.0', method: 'exit', params: { code: 0 } });
    expect((await final).phase).to.equal('closed');
  });

  it('fails with an ENOENT message naming a missing command', async () => {
    const t = createStdioClientTransport({ command: 'mcp-actors-no-such-server', args: ['--x'] });
    let rejected: unknown;
    await t.start().catch((e) => (rejected = e));
    expect(rejected).to.be.instanceOf(TransportError);
    const state = lastStateOf(t);
    expect(state.phase).to.equal('failed');
    expect(state.error).to.equal(rejected);
    expect(state.error!.message).to.include('"mcp-actors-no-such-server"');
    expect(state.error!.message).to.match(/not found \(ENOENT\)/);
    expect(state.error!.message).to.match(/PATH/);
    expect((state.error as TransportError).details).to.include({ code: 'ENOENT', command: 'mcp-actors-no-such-server' });
  });

  it('says so when the working directory is missing', async () => {
    const t = child('echo', { cwd: '/nonexistent/mcp-actors-dir' });
    await t.start().catch(() => {});
    expect(lastStateOf(t).error!.message).to.match(/working directory .* does not exist/);
  });

  it('[LIFE-118] escalates to SIGTERM and then SIGKILL on its clock when the server ignores stdin and SIGTERM', async () => {
    const clock = new SimulatedClock();
    const t = child('stubborn', { clock, closeTimeout: 1000, termTimeout: 500 });
    const machine: string[] = [];
    t.machineState$.subscribe((s) => machine.push(JSON.stringify(s.value)));
    const ready = firstValueFrom(t.inbound$); // sent once its SIGTERM handler is installed
    await t.start();
    await ready;
    const closed = t.close();
    expect(machine.at(-1)).to.equal('{"closing":"stdinClosed"}');
    clock.increment(999);
    expect(machine.at(-1)).to.equal('{"closing":"stdinClosed"}');
    clock.increment(1);
    expect(machine.at(-1)).to.equal('{"closing":"terminating"}');
    clock.increment(500);
    expect(machine.at(-1)).to.equal('{"closing":"killing"}');
    await closed;
    const state = lastStateOf(t);
    expect(state.phase).to.equal('closed');
    // Killed by SIGKILL, so it did ignore SIGTERM and only the last step ended it.
    expect(state.details).to.include({ code: null, signal: 'SIGKILL' });
    expect(machine.at(-1)).to.equal('"exited"');
  });

  it('drains a flood of stderr nobody listens to, so the server keeps answering', async () => {
    const t = child('flood', { stderr: 'pipe' });
    await t.start();
    const answer = responseTo(t, 1);
    t.send(request(1));
    expect((await answer).id).to.equal(1);
    await t.close();
    // After close every stderr byte has been read: the tail is the last 20 lines.
    expect(t.stderrTail.at(-1)).to.equal('flood done');
    expect(t.stderrTail).to.have.length(20);
  });

  it('streams stderr lines on stderr$ with stderr: pipe', async () => {
    const t = child('crash', { stderr: 'pipe' });
    const lines = lastValueFrom(t.stderr$.pipe(toArray()));
    await t.start();
    expect(await lines).to.deep.equal(['loading config', 'Error: config file missing']);
  });

  describe('environment', () => {
    const SECRET = 'MCP_ACTORS_SPEC_SECRET';
    before(() => (process.env[SECRET] = 'hunter2'));
    after(() => delete process.env[SECRET]);

    async function envOf(more: Partial<StdioClientTransportOptions>) {
      const t = child('echo', more);
      await t.start();
      const answer = responseTo(t, 1);
      t.send(request(1, 'env'));
      const env = (await answer).result.env as Record<string, string>;
      await t.close();
      return env;
    }

    it('passes only the safe defaults plus env by default', async () => {
      const env = await envOf({ env: { EXTRA: 'yes' } });
      expect(env).to.not.have.property(SECRET);
      expect(env.EXTRA).to.equal('yes');
      if (process.env.PATH) expect(env.PATH).to.equal(process.env.PATH);
    });

    it('passes the whole environment with inheritEnv', async () => {
      const env = await envOf({ inheritEnv: true });
      expect(env[SECRET]).to.equal('hunter2');
    });
  });
});

function lastStateOf(t: { state$: import('rxjs').Observable<TransportState> }): TransportState {
  let last!: TransportState;
  t.state$.subscribe((s) => (last = s)).unsubscribe();
  return last;
}
