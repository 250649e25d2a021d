import { expect } from 'chai';
import sinon from 'sinon';
import { PassThrough, Writable } from 'node:stream';
import { lastValueFrom, toArray } from 'rxjs';
import { TransportError } from '../../lib/errors.js';
import type { JsonRpcNotification } from '../../lib/jsonrpc/message.js';
import { createStdioServerTransport } from '../../streams/stdio-server.js';
import { ManualClock } from '../../lib/clock.js';
import { createServer } from '../../lib/server.js';
import { OversizeFrame } from '../../streams/transport.js';

const note = (n: number): JsonRpcNotification => ({ jsonrpc: '2.0', method: 'n', params: { n } });

function pipes() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let written = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (s: string) => (written += s));
  return { stdin, stdout, output: () => written };
}

describe('stdio server transport', () => {
  it('reads one frame per stdin line, across chunk boundaries and CRLF', async () => {
    const { stdin, stdout } = pipes();
    const t = createStdioServerTransport({ stdin, stdout, redirectConsole: false });
    await t.start();
    const all = lastValueFrom(t.inbound$.pipe(toArray()));
    stdin.write('{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc":"2.0",');
    stdin.write('"method":"b"}\r\n');
    stdin.end('{"jsonrpc":"2.0","method":"c"}\n');
    expect(await all).to.deep.equal([
      '{"jsonrpc":"2.0","method":"a"}',
      '{"jsonrpc":"2.0","method":"b"}',
      '{"jsonrpc":"2.0","method":"c"}',
    ]);
  });

  it('buffers lines that arrive before the first subscriber', async () => {
    const { stdin, stdout } = pipes();
    const t = createStdioServerTransport({ stdin, stdout, redirectConsole: false });
    await t.start();
    stdin.write('{"a":1}\n');
    await new Promise((r) => setImmediate(r));
    const all = lastValueFrom(t.inbound$.pipe(toArray()));
    stdin.end();
    expect(await all).to.deep.equal(['{"a":1}']);
  });

  it('reports over-long lines as OversizeFrame', async () => {
    const { stdin, stdout } = pipes();
    const t = createStdioServerTransport({ stdin, stdout, maxFrameBytes: 16, redirectConsole: false });
    await t.start();
    const all = lastValueFrom(t.inbound$.pipe(toArray()));
    stdin.end('{"x":"' + 'y'.repeat(40) + '"}\n{"ok":1}\n');
    const got = await all;
    expect(got[0]).to.be.instanceOf(OversizeFrame);
    expect(got[1]).to.equal('{"ok":1}');
  });

  it('writes each frame as one line, coalescing frames of one tick into one write', async () => {
    const { stdin, stdout, output } = pipes();
    const write = sinon.spy(stdout, 'write');
    const t = createStdioServerTransport({ stdin, stdout, redirectConsole: false });
    await t.start();
    t.send(note(1));
    t.send(note(2));
    t.send(note(3));
    expect(write.called).to.equal(false);
    await Promise.resolve();
    expect(write.callCount).to.equal(1);
    await t.close();
    expect(output()).to.equal([note(1), note(2), note(3)].map((f) => JSON.stringify(f) + '\n').join(''));
  });

  it('closes cleanly when stdin ends (alone, after the drain timeout on its clock)', async () => {
    const { stdin, stdout } = pipes();
    const clock = new ManualClock(0);
    const t = createStdioServerTransport({ stdin, stdout, redirectConsole: false, clock, drainTimeoutMs: 100 });
    await t.start();
    const phases = lastValueFrom(t.state$.pipe(toArray()));
    const done = lastValueFrom(t.inbound$.pipe(toArray()));
    stdin.end();
    await done;
    // Input is over; answers may still go out until the drain timeout.
    expect(() => t.send(note(1))).not.to.throw();
    clock.advance(100);
    expect((await phases).map((s) => s.phase)).to.deep.equal(['open', 'closing', 'closed']);
    expect(() => t.send(note(2))).to.throw(TransportError);
  });

  it('answers requests still in flight when stdin closes first, then closes', async () => {
    const { stdin, stdout, output } = pipes();
    const clock = new ManualClock(0);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const server = createServer({ info: { name: 's', version: '1' }, capabilities: { tools: {} } });
    server.onRequest('tools/call', async () => {
      await gate;
      return { content: [{ type: 'text', text: 'late answer' }] };
    });
    const t = createStdioServerTransport({ stdin, stdout, redirectConsole: false, clock });
    const phases = lastValueFrom(t.state$.pipe(toArray()));
    await server.connect(t);
    stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }) + '\n');
    stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    stdin.end(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow', arguments: {} } }) + '\n');
    await new Promise((r) => setImmediate(r));
    release();
    // Closed by the session once answered: no drain timeout needed (the clock never moves).
    expect((await phases).map((s) => s.phase)).to.deep.equal(['connecting', 'open', 'closing', 'closed']);
    const lines = output().trim().split('\n').map((l) => JSON.parse(l) as { id?: number; result?: unknown });
    expect(lines.find((l) => l.id === 2)?.result).to.deep.equal({ content: [{ type: 'text', text: 'late answer' }] });
  });

  it('refuses to send before start', () => {
    const { stdin, stdout } = pipes();
    const t = createStdioServerTransport({ stdin, stdout, redirectConsole: false });
    expect(() => t.send(note(1))).to.throw(TransportError, /connecting/);
  });

  it('[STDIO-002] sends console.log to stderr while open, and restores it on close', async () => {
    const { stdin, stdout, output } = pipes();
    const originalLog = console.log;
    const t = createStdioServerTransport({ stdin, stdout });
    await t.start();
    try {
      const err = sinon.stub(process.stderr, 'write').returns(true);
      const out = sinon.stub(process.stdout, 'write').returns(true);
      try {
        console.log('stray %s', 'output');
        console.info('info');
        console.debug('debug');
      } finally {
        err.restore();
        out.restore();
      }
      expect(out.called).to.equal(false);
      const onErr = err.getCalls().map((c) => String(c.args[0])).join('');
      expect(onErr).to.equal('stray output\ninfo\ndebug\n');
      expect(output()).to.equal('');
    } finally {
      await t.close();
    }
    expect(console.log).to.equal(originalLog);
  });

  it('leaves console alone with redirectConsole: false', async () => {
    const { stdin, stdout } = pipes();
    const originalLog = console.log;
    const t = createStdioServerTransport({ stdin, stdout, redirectConsole: false });
    await t.start();
    expect(console.log).to.equal(originalLog);
    await t.close();
  });

  it('survives EPIPE on stdout: closes instead of crashing', async () => {
    const stdin = new PassThrough();
    const stdout = new Writable({
      write(_chunk, _enc, cb) {
        cb(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    const t = createStdioServerTransport({ stdin, stdout, redirectConsole: false });
    await t.start();
    const final = lastValueFrom(t.state$);
    t.send(note(1));
    const state = await final;
    expect(state.phase).to.equal('closed');
    expect((state.error as NodeJS.ErrnoException).code).to.equal('EPIPE');
    expect(() => t.send(note(2))).to.throw(TransportError);
  });

  it('returns a promise while stdout is backed up, resolved on drain', async () => {
    const stdin = new PassThrough();
    const callbacks: (() => void)[] = [];
    const chunks: string[] = [];
    const stdout = new Writable({
      highWaterMark: 8,
      decodeStrings: false,
      write(chunk, _enc, cb) {
        chunks.push(String(chunk));
        callbacks.push(cb);
      },
    });
    const t = createStdioServerTransport({ stdin, stdout, redirectConsole: false });
    await t.start();
    expect(t.send(note(1))).to.equal(undefined);
    await Promise.resolve();
    const pending = t.send(note(2));
    expect(pending).to.be.instanceOf(Promise);
    let resolved = false;
    void (pending as Promise<void>).then(() => (resolved = true));
    await new Promise((r) => setImmediate(r));
    expect(resolved).to.equal(false);
    expect(chunks).to.have.length(1);
    callbacks.shift()!();
    await pending;
    expect(chunks.join('')).to.equal(JSON.stringify(note(1)) + '\n' + JSON.stringify(note(2)) + '\n');
    callbacks.shift()!();
    await t.close();
  });
});
