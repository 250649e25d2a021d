import { expect } from 'chai';
import sinon from 'sinon';
import { makeLogger, toLogData } from '../../lib/server-features/logging.js';
import { RawPeer, initializeRaw } from '../helpers/raw-peer.js';
import { connect, makeServer, rejection, settle } from './helpers.js';

const messages = (notes: { method: string; params: any }[]) => notes.filter((n) => n.method === 'notifications/message').map((n) => n.params);

describe('server features: logging', () => {
  afterEach(() => sinon.restore());

  it('[LOG-001] declares the logging capability', async () => {
    const { mcp } = makeServer();
    const { client } = await connect(mcp);
    expect(client.serverCapabilities).to.deep.include({ logging: {} });
  });

  it('logging/setLevel answers exactly {}', async () => {
    const { mcp } = makeServer();
    const peer = new RawPeer();
    await mcp.connect(peer.transport);
    await initializeRaw(peer);
    peer.send({ jsonrpc: '2.0', id: 7, method: 'logging/setLevel', params: { level: 'info' } });
    expect(await peer.response(7)).to.deep.equal({ jsonrpc: '2.0', id: 7, result: {} });
  });

  it('[LOG-002] an invalid log level is -32602 naming the valid ones', async () => {
    const { mcp } = makeServer();
    const { client } = await connect(mcp);
    for (const params of [{ level: 'verbose' }, { level: 3 }, {}]) {
      const err = await rejection(client.request('logging/setLevel', params));
      expect(err.code).to.equal(-32602);
      expect(err.message).to.contain('Invalid log level').and.to.contain('debug, info, notice, warning, error, critical, alert, emergency');
    }
  });

  it('filters notifications/message by each session’s level; mcp.log reaches every session', async () => {
    const { mcp } = makeServer();
    mcp.registerTool('chatty', {}, (_args, ctx) => {
      for (const level of ['debug', 'info', 'warning', 'error', 'emergency'] as const) ctx.log[level](`at ${level}`);
      return 'ok';
    });
    const quiet = await connect(mcp);
    const loud = await connect(mcp);
    await quiet.client.request('logging/setLevel', { level: 'warning' });
    await quiet.client.request('tools/call', { name: 'chatty' });
    await loud.client.request('tools/call', { name: 'chatty' });
    await settle();
    expect(messages(quiet.notes).map((m) => m.level)).to.deep.equal(['warning', 'error', 'emergency']);
    expect(messages(loud.notes).map((m) => m.level)).to.deep.equal(['debug', 'info', 'warning', 'error', 'emergency']);

    quiet.notes.length = 0;
    loud.notes.length = 0;
    mcp.log('info', { event: 'deploy' }, 'ops');
    mcp.log('critical', 'disk full', 'ops');
    await settle();
    expect(messages(quiet.notes)).to.deep.equal([{ level: 'critical', data: 'disk full', logger: 'ops' }]);
    expect(messages(loud.notes)).to.deep.equal([
      { level: 'info', data: { event: 'deploy' }, logger: 'ops' },
      { level: 'critical', data: 'disk full', logger: 'ops' },
    ]);
  });

  it('the logLevel option is the level of sessions that never set one; levels$ shows what sessions set', async () => {
    const { mcp } = makeServer({ logLevel: 'error' });
    const seen: string[][] = [];
    mcp.logLevels$.subscribe((s) => seen.push([...s.levels.values()]));
    const { client, notes, session } = await connect(mcp);
    mcp.log('warning', 'not sent');
    mcp.log('error', 'sent');
    await settle();
    expect(messages(notes).map((m) => m.data)).to.deep.equal(['sent']);
    await client.request('logging/setLevel', { level: 'debug' });
    expect(mcp.logging.levelOf(session)).to.equal('debug');
    await client.close();
    await settle();
    expect(seen).to.deep.equal([[], ['debug'], []]);
  });

  it('[LOG-008] [LOG-007] secrets are redacted from log data by key, at any depth', async () => {
    const { mcp } = makeServer();
    const { notes } = await connect(mcp);
    mcp.log('info', { user: 'ada', password: 'hunter2', request: { headers: { Authorization: 'Bearer x', accept: '*/*' } }, items: [{ apiKey: 'k' }], maxTokens: 5, client_secret: 's' });
    await settle();
    expect(messages(notes)[0].data).to.deep.equal({
      user: 'ada',
      password: '[REDACTED]',
      request: { headers: { Authorization: '[REDACTED]', accept: '*/*' } },
      items: [{ apiKey: '[REDACTED]' }],
      maxTokens: 5,
      client_secret: '[REDACTED]',
    });
  });

  it('[LOG-009] redactLog adds rules for personal data (or turns redaction off)', async () => {
    const { mcp } = makeServer({ redactLog: (data) => JSON.parse(JSON.stringify(data).replace(/[\w.]+@[\w.]+/g, '<email>')) });
    const { notes } = await connect(mcp);
    mcp.log('info', 'signup from ada@example.com');
    const raw = makeServer({ redactLog: false });
    const other = await connect(raw.mcp);
    raw.mcp.log('info', { token: 't' });
    await settle();
    expect(messages(notes)[0].data).to.equal('signup from <email>');
    expect(messages(other.notes)[0].data).to.deep.equal({ token: 't' });
  });

  it('[LOG-010] an Error is logged as its name and message, without the stack', () => {
    expect(toLogData(new TypeError('bad input'))).to.deep.equal({ name: 'TypeError', message: 'bad input' });
    const cyclic: any = { a: 1 };
    cyclic.self = cyclic;
    expect(toLogData(cyclic)).to.be.a('string');
    expect(toLogData(undefined)).to.equal(null);
  });

  it('loggers: child() names the logger; never writes to stdout', async () => {
    const write = sinon.spy(process.stdout, 'write');
    const { mcp } = makeServer();
    mcp.registerTool('t', {}, (_a, ctx) => {
      ctx.log.child('db').error('connection failed');
      ctx.log.log('notice', 'plain');
      return 'ok';
    });
    const { client, notes } = await connect(mcp);
    await client.request('tools/call', { name: 't' });
    mcp.log('alert', 'all hands');
    await settle();
    write.restore();
    expect(write.called).to.equal(false);
    expect(messages(notes)).to.deep.equal([
      { level: 'error', data: 'connection failed', logger: 'db' },
      { level: 'notice', data: 'plain' },
      { level: 'alert', data: 'all hands' },
    ]);
    const got: unknown[] = [];
    makeLogger((...a) => got.push(a), 'base').warning('w');
    expect(got).to.deep.equal([['warning', 'w', 'base']]);
  });

  it('a log message is tied to the request that logged it (sent with its related request id)', async () => {
    const { mcp } = makeServer();
    mcp.registerTool('t', {}, (_a, ctx) => {
      ctx.log.info('inside');
      return 'ok';
    });
    const peer = new RawPeer();
    const session = await mcp.connect(peer.transport);
    const sends: unknown[] = [];
    const original = peer.transport.send.bind(peer.transport);
    sinon.replace(peer.transport, 'send', (frame: any, opts?: any) => {
      sends.push([frame.method ?? 'response', opts?.relatedRequestId]);
      return original(frame);
    });
    await initializeRaw(peer);
    peer.send({ jsonrpc: '2.0', id: 'call-1', method: 'tools/call', params: { name: 't' } });
    await peer.response('call-1');
    expect(sends).to.deep.include(['notifications/message', 'call-1']);
    expect(session.currentPhase).to.equal('operating');
  });
});
