import { expect } from 'chai';
import { InvalidLogMessageError, type LogRedaction } from '../../lib/server-features/logging.js';
import type { ServerCaller } from '../../lib/session/session.js';
import { connect, makeServer, rejection, settle } from './helpers.js';

const messages = (notes: { method: string; params: any }[]) => notes.filter((n) => n.method === 'notifications/message').map((n) => n.params);

describe('server features: logging (configuration errors, context, names, validation, access, monitoring)', () => {
  it('[LOG-003] a level the server cannot apply is -32603 without internal details; the level stays as it was', async () => {
    const applied: string[] = [];
    const { mcp } = makeServer({
      onLogLevel: async (level) => {
        if (level === 'debug') throw new Error('log backend at 10.0.0.5:9200 refused the change');
        applied.push(level);
      },
    });
    const { client, session, notes } = await connect(mcp);
    expect(await client.request('logging/setLevel', { level: 'warning' })).to.deep.equal({});
    expect(applied).to.deep.equal(['warning']);

    const err = await rejection(client.request('logging/setLevel', { level: 'debug' }));
    expect(err.code).to.equal(-32603);
    expect(err.message).to.contain('could not apply log level "debug"').and.to.contain('unchanged ("warning")');
    expect(err.message).not.to.contain('10.0.0.5');
    expect(err.data).to.deep.equal({ level: 'debug', current: 'warning' });
    expect(mcp.logging.levelOf(session)).to.equal('warning');
    mcp.log('info', 'still filtered');
    mcp.log('error', 'still sent');
    await settle();
    expect(messages(notes).map((m) => m.data)).to.deep.equal(['still sent']);
    // An invalid level is still -32602, before the hook runs.
    expect((await rejection(client.request('logging/setLevel', { level: 'loud' }))).code).to.equal(-32602);
    expect(applied).to.deep.equal(['warning']);
  });

  it('[LOG-003] a hook that throws synchronously is answered -32603 as well', async () => {
    const { mcp } = makeServer({
      onLogLevel: () => {
        throw new Error('read-only configuration');
      },
    });
    const { client, session } = await connect(mcp);
    const err = await rejection(client.request('logging/setLevel', { level: 'error' }));
    expect(err.code).to.equal(-32603);
    expect(mcp.logging.levelOf(session)).to.equal('debug');
  });

  it('[LOG-005] withContext puts the request’s context into the data of every message', async () => {
    const { mcp } = makeServer();
    mcp.registerTool('deploy', {}, (_args, ctx) => {
      const log = ctx.log.withContext({ tool: 'deploy', requestId: ctx.requestId });
      log.info('started');
      log.warning({ step: 2, of: 3 });
      log.error(new Error('boom'));
      log.child('db').notice(3);
      log.withContext({ apiKey: 'sk-live-123' }).debug('with a secret in the context');
      return 'ok';
    });
    const { client, notes } = await connect(mcp);
    await client.request('tools/call', { name: 'deploy' });
    await settle();
    const requestId = 1; // the client's second request (0 was initialize)
    expect(messages(notes)).to.deep.equal([
      { level: 'info', data: { tool: 'deploy', requestId, message: 'started' } },
      { level: 'warning', data: { tool: 'deploy', requestId, step: 2, of: 3 } },
      { level: 'error', data: { tool: 'deploy', requestId, error: { name: 'Error', message: 'boom' } } },
      { level: 'notice', data: { tool: 'deploy', requestId, value: 3 }, logger: 'db' },
      { level: 'debug', data: { tool: 'deploy', requestId, apiKey: '[REDACTED]', message: 'with a secret in the context' } },
    ]);
  });

  it('[LOG-006] logger names nest (billing.invoices) and stay the same across requests and sessions', async () => {
    const { mcp } = makeServer();
    const billing = mcp.logger('billing');
    const invoices = billing.child('invoices');
    mcp.registerTool('query', {}, (_args, ctx) => {
      ctx.log.child('db').child('pool').info('acquired');
      return 'ok';
    });
    const a = await connect(mcp);
    const b = await connect(mcp);
    await a.client.request('tools/call', { name: 'query' });
    await b.client.request('tools/call', { name: 'query' });
    await a.client.request('tools/call', { name: 'query' });
    invoices.info('issued');
    billing.warning('late payment');
    await settle();
    expect(messages(a.notes).map((m) => m.logger)).to.deep.equal(['db.pool', 'db.pool', 'billing.invoices', 'billing']);
    expect(messages(b.notes).map((m) => m.logger)).to.deep.equal(['db.pool', 'billing.invoices', 'billing']);
  });

  it('[LOG-006] [LOG-012] a logger name that is empty, too long, multi-line or not a string is refused before anything is sent', async () => {
    const { mcp } = makeServer();
    const { notes } = await connect(mcp);
    for (const name of ['', 'x'.repeat(129), 'db\nERROR admin logged in', 'tab\there', 42 as unknown as string]) {
      expect(() => mcp.logger('app').child(name), JSON.stringify(name)).to.throw(InvalidLogMessageError).with.property('field', 'logger');
      expect(() => mcp.log('info', 'x', name), JSON.stringify(name)).to.throw(InvalidLogMessageError);
    }
    expect(() => mcp.logger('x'.repeat(128))).not.to.throw();
    expect(() => mcp.logger('app').child('x'.repeat(125)), 'the nested name counts').to.throw(InvalidLogMessageError);
    await settle();
    expect(messages(notes)).to.deep.equal([]);
  });

  it('[LOG-012] every field is checked before sending: the level, and data as bounded JSON', async () => {
    const { mcp } = makeServer({ maxLogDataChars: 200 });
    const { notes } = await connect(mcp);
    expect(() => mcp.log('verbose' as never, 'x')).to.throw(InvalidLogMessageError).with.property('field', 'level');
    mcp.log('info', { id: 12345678901234567890n, fn: () => 1, at: new Date(0) });
    mcp.log('info', undefined);
    mcp.log('info', { rows: Array.from({ length: 50 }, (_, i) => ({ i })) });
    mcp.log('info', 'y'.repeat(500));
    await settle();
    const sent = messages(notes);
    expect(sent.map((m) => Object.keys(m).sort())).to.deep.equal([['data', 'level'], ['data', 'level'], ['data', 'level'], ['data', 'level']]);
    expect(sent[0].data).to.deep.equal({ id: '12345678901234567890', at: '1970-01-01T00:00:00.000Z' });
    expect(sent[1].data).to.equal(null);
    expect(sent[2].data).to.include({ truncated: true });
    expect(sent[2].data.chars).to.be.above(200);
    expect(sent[2].data.start).to.have.length(200);
    expect(sent[3].data).to.deep.equal({ truncated: true, chars: 500, start: 'y'.repeat(200) });
  });

  it('[LOG-013] a request’s logger reaches only its own session; logAccess keeps the server’s logs to entitled sessions', async () => {
    const operators = new Set<ServerCaller>();
    const { mcp } = makeServer({ logAccess: (session) => operators.has(session) });
    mcp.registerTool('work', {}, (args, ctx) => {
      ctx.log.info(`working for ${String(args.who)}`);
      return 'ok';
    });
    const alice = await connect(mcp);
    const bob = await connect(mcp);
    const ops = await connect(mcp);
    operators.add(alice.session).add(ops.session);

    await alice.client.request('tools/call', { name: 'work', arguments: { who: 'alice' } });
    await bob.client.request('tools/call', { name: 'work', arguments: { who: 'bob' } });
    mcp.log('error', 'disk full');
    await settle();
    expect(messages(alice.notes).map((m) => m.data)).to.deep.equal(['working for alice', 'disk full']);
    expect(messages(ops.notes).map((m) => m.data)).to.deep.equal(['disk full']);
    expect(messages(bob.notes)).to.deep.equal([]);
  });

  it('[LOG-014] [LOG-008] each redaction is reported on redactions$ with where it happened, never the secret', async () => {
    const { mcp } = makeServer();
    const { notes } = await connect(mcp);
    const reports: LogRedaction[] = [];
    mcp.logging.redactions$.subscribe((r) => reports.push(r));
    mcp.log('info', { user: 'ada', password: 'hunter2', request: { headers: { Authorization: 'Bearer abc.def' } }, items: [{ apiKey: 'sk-1' }] }, 'auth');
    mcp.log('info', { user: 'ada', action: 'login' }, 'auth');
    mcp.logger('payments').warning({ card: { token: 'tok_visa' } });
    await settle();
    expect(reports).to.deep.equal([
      { level: 'info', logger: 'auth', paths: ['password', 'request.headers.Authorization', 'items[0].apiKey'], custom: false },
      { level: 'warning', logger: 'payments', paths: ['card.token'], custom: false },
    ]);
    const text = JSON.stringify(reports);
    for (const secret of ['hunter2', 'Bearer', 'sk-1', 'tok_visa']) expect(text).not.to.contain(secret);
    // What the client got is redacted as well.
    expect(JSON.stringify(messages(notes))).not.to.match(/hunter2|Bearer|sk-1|tok_visa/);
  });

  it('[LOG-014] a secret inside a string that holds JSON is hidden too, and its path reported', async () => {
    const { mcp } = makeServer();
    const { notes } = await connect(mcp);
    const reports: LogRedaction[] = [];
    mcp.logging.redactions$.subscribe((r) => reports.push(r));
    const body = JSON.stringify({ user: 'ada', password: 'hunter2', inner: JSON.stringify({ apiKey: 'sk-1' }) });
    mcp.log('info', { request: { body }, note: '{ not json' }, 'auth');
    await settle();
    expect(reports).to.deep.equal([{ level: 'info', logger: 'auth', paths: ['request.body.password', 'request.body.inner.apiKey'], custom: false }]);
    const sent = messages(notes)[0].data;
    expect(JSON.parse(sent.request.body)).to.deep.equal({ user: 'ada', password: '[REDACTED]', inner: JSON.stringify({ apiKey: '[REDACTED]' }) });
    expect(sent.note).to.equal('{ not json');
    expect(JSON.stringify(messages(notes))).not.to.match(/hunter2|sk-1/);
  });

  it('[LOG-014] a custom redact function that changed the data is reported as custom', async () => {
    const { mcp } = makeServer({ redactLog: (data) => JSON.parse(JSON.stringify(data).replace(/[\w.]+@[\w.]+/g, '<email>')) });
    await connect(mcp);
    const reports: LogRedaction[] = [];
    mcp.logging.redactions$.subscribe((r) => reports.push(r));
    mcp.log('notice', 'signup from ada@example.com');
    mcp.log('notice', 'nothing personal');
    await settle();
    expect(reports).to.deep.equal([{ level: 'notice', paths: [], custom: true }]);
  });
});
