import { expect } from 'chai';
import sinon from 'sinon';
import { ElicitationNotCompletedError, UrlElicitationRequiredError } from '../../lib/client-features/client-feature-errors.js';
import type {
  FormElicitationContext,
  FormElicitationRequest,
  ElicitationOptions,
  ElicitationStatus,
  FormElicitationAnswer,
  UrlElicitationControl,
  UrlElicitationRequest,
} from '../../lib/client-features/elicitation.js';
import { McpError } from '../../lib/errors.js';
import { Client } from '../../lib/entries/client.js';
import { CLIENT_INFO } from '../helpers/raw-peer.js';
import { flush, pair, rejection } from './helpers.js';

const PROFILE = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 2 },
    age: { type: 'integer', minimum: 0 },
    color: { type: 'string', oneOf: [{ const: '#f00', title: 'Red' }, { const: '#00f', title: 'Blue' }], default: '#00f' },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, default: ['a'] },
    newsletter: { type: 'boolean', default: false },
  },
  required: ['name', 'age', 'color'],
};
const FORM = { mode: 'form', message: 'Tell us about you', requestedSchema: PROFILE };
const URL_PARAMS = { mode: 'url', elicitationId: 'el-1', url: 'https://auth.example.com/connect?elicitationId=el-1', message: 'Connect your account' };

/** A spy with the form handler's signature. */
const formSpy = (fn: () => FormElicitationAnswer) => sinon.spy((_req: FormElicitationRequest, _ctx: FormElicitationContext) => fn());

async function elicitPair(options: ElicitationOptions, supportedVersions?: string[]) {
  return pair({
    serverUnchecked: true,
    serverCapabilities: { tools: {} },
    ...(supportedVersions && { supportedVersions }),
    setup: (c) => c.onElicitation(options),
  });
}

describe('client features: elicitation', () => {
  describe('capabilities', () => {
    it('[ELICIT-007] declares form and url for the handlers given (applyDefaults in form)', async () => {
      const both = await elicitPair({ form: () => ({ action: 'cancel' }), url: () => 'cancel', applyDefaults: true });
      expect(both.session.peerCapabilities!.elicitation).to.deep.equal({ form: { applyDefaults: true }, url: {} });
      const formOnly = await elicitPair({ form: () => ({ action: 'cancel' }) });
      expect(formOnly.session.peerCapabilities!.elicitation).to.deep.equal({ form: {} });
      const urlOnly = await elicitPair({ url: () => 'cancel' });
      expect(urlOnly.session.peerCapabilities!.elicitation).to.deep.equal({ url: {} });
    });

    it('[ELICIT-008] a client declaring elicitation supports at least one mode', () => {
      const client = new Client({ era: 'legacy', info: CLIENT_INFO });
      expect(() => client.onElicitation({})).to.throw(TypeError, /at least one mode/);
      expect(client.localCapabilities).to.not.have.property('elicitation');
    });
  });

  describe('modes', () => {
    it('[ELICIT-011] [ELICIT-003] [ELICIT-035] a request without mode is form mode, shown with the server that asks', async () => {
      const form = formSpy((): FormElicitationAnswer => ({ action: 'accept', content: { name: 'Ada', age: 36, color: '#f00' } }));
      const { session } = await elicitPair({ form, url: () => 'cancel' });
      const r = await session.request('elicitation/create', { message: 'Who?', requestedSchema: PROFILE });
      expect(r).to.deep.equal({ action: 'accept', content: { name: 'Ada', age: 36, color: '#f00' } });
      expect(form.firstCall.args[0]).to.include({ mode: 'form', message: 'Who?' });
      expect(form.firstCall.args[0].server).to.deep.equal({ name: 'spec-server', version: '1.0.0' });
    });

    it('[ELICIT-033] a URL elicitation to a client that declared only form is answered -32602', async () => {
      const form = formSpy((): FormElicitationAnswer => ({ action: 'cancel' }));
      const { session } = await elicitPair({ form });
      const err = await rejection(session.request('elicitation/create', URL_PARAMS));
      expect(err.code).to.equal(-32602);
      expect(err.message).to.contain('"url" is not supported');
      expect(form.called).to.equal(false);
    });

    it('[ELICIT-033] a form elicitation to a client that declared only url, and an unknown mode, are answered -32602', async () => {
      const url = sinon.spy(() => 'cancel' as const);
      const { session } = await elicitPair({ url });
      expect((await rejection(session.request('elicitation/create', FORM))).code).to.equal(-32602);
      const err = await rejection(session.request('elicitation/create', { ...FORM, mode: 'telepathy' }));
      expect(err.code).to.equal(-32602);
      expect(err.message).to.contain('Unknown elicitation mode');
      expect(url.called).to.equal(false);
    });

    it('[ELICIT-033] in 2025-06-18 (no URL mode) a URL elicitation is answered -32602 even with a url handler', async () => {
      const url = sinon.spy(() => 'accept' as const);
      const { session, client } = await elicitPair({ form: () => ({ action: 'cancel' }), url }, ['2025-06-18']);
      expect(client.protocolVersion).to.equal('2025-06-18');
      expect((await rejection(session.request('elicitation/create', URL_PARAMS))).code).to.equal(-32602);
      expect(url.called).to.equal(false);
    });
  });

  describe('form mode', () => {
    it('[ELICIT-055] [ELICIT-005] [ELICIT-062] [ELICIT-067] an answer of the wrong type is refused before sending; the form comes back with the errors', async () => {
      const answers: FormElicitationAnswer[] = [
        { action: 'accept', content: { name: 'Ada', age: 'thirty-six', color: '#f00' } },
        { action: 'accept', content: { name: 'Ada', age: 36, color: '#f00' } },
      ];
      const form = formSpy((): FormElicitationAnswer => answers.shift()!);
      const { session, clientOut } = await elicitPair({ form });
      const r = await session.request('elicitation/create', FORM);
      expect(r).to.deep.equal({ action: 'accept', content: { name: 'Ada', age: 36, color: '#f00' } });
      expect(form.callCount).to.equal(2);
      const second = form.secondCall.args[1];
      expect(second.attempt).to.equal(2);
      expect(second.errors).to.deep.equal([{ field: 'age', message: 'must be a number, got string "thirty-six"' }]);
      expect(second.previous).to.deep.equal({ name: 'Ada', age: 'thirty-six', color: '#f00' });
      expect(JSON.stringify(clientOut)).to.not.contain('thirty-six');
    });

    it('[ELICIT-055] invalid answers again and again: -32603 after maxAttempts, and nothing invalid is sent', async () => {
      const form = formSpy((): FormElicitationAnswer => ({ action: 'accept', content: { name: 'A', age: -1, color: 'green', extra: 1 } }));
      const { session, clientOut } = await elicitPair({ form, maxAttempts: 2 });
      const err = await rejection(session.request('elicitation/create', FORM));
      expect(err.code).to.equal(-32603);
      expect(err.message).to.contain('did not match the requested schema after 2 attempt(s)');
      expect(err.message).to.contain('name must be at least 2 characters').and.contain('age must be at least 0').and.contain('extra is not a field');
      expect(form.callCount).to.equal(2);
      expect(JSON.stringify(clientOut)).to.not.contain('green');
    });

    it('[ELICIT-013] defaults: offered to the form, and filled in for omitted fields with applyDefaults (SEP-1034)', async () => {
      const form = formSpy((): FormElicitationAnswer => ({ action: 'accept', content: { name: 'Ada', age: 36 } }));
      const { session } = await elicitPair({ form, applyDefaults: true });
      const r = await session.request('elicitation/create', FORM);
      expect(form.firstCall.args[0].defaults).to.deep.equal({ color: '#00f', tags: ['a'], newsletter: false });
      expect(r).to.deep.equal({ action: 'accept', content: { color: '#00f', tags: ['a'], newsletter: false, name: 'Ada', age: 36 } });
    });

    it('without applyDefaults an omitted required field is an invalid answer', async () => {
      const form = formSpy((): FormElicitationAnswer => ({ action: 'accept', content: { name: 'Ada', age: 36 } }));
      const { session } = await elicitPair({ form, maxAttempts: 1 });
      const err = await rejection(session.request('elicitation/create', FORM));
      expect(err.message).to.contain('color is required');
    });

    it('[ELICIT-004] [ELICIT-037] [ELICIT-063] decline and cancel go back as such, without content', async () => {
      const answers: FormElicitationAnswer[] = [{ action: 'decline' }, { action: 'cancel' }];
      const { session } = await elicitPair({ form: () => answers.shift()! });
      expect(await session.request('elicitation/create', FORM)).to.deep.equal({ action: 'decline' });
      expect(await session.request('elicitation/create', FORM)).to.deep.equal({ action: 'cancel' });
    });

    it('a requestedSchema that is not flat and primitive is answered -32602', async () => {
      const form = formSpy((): FormElicitationAnswer => ({ action: 'cancel' }));
      const { session } = await elicitPair({ form });
      const nested = { type: 'object', properties: { address: { type: 'object', properties: {} } } };
      const err = await rejection(session.request('elicitation/create', { message: 'x', requestedSchema: nested }));
      expect(err.code).to.equal(-32602);
      expect(err.message).to.contain('field "address"');
      expect(form.called).to.equal(false);
    });

    it('a form handler that throws answers -32603; the server cancelling closes the form (its signal aborts) and nothing is answered', async () => {
      const { session } = await elicitPair({
        form: (_req, ctx) =>
          new Promise((_resolve, reject) => {
            ctx.signal.addEventListener('abort', () => reject(new Error('closed')));
          }),
      });
      const controller = new AbortController();
      const p = session.request('elicitation/create', FORM, { signal: controller.signal });
      await flush();
      controller.abort('no longer needed');
      expect(await rejection(p)).to.be.instanceOf(McpError);
      await flush();
      const thrower = await elicitPair({
        form: () => {
          throw new Error('UI crashed');
        },
      });
      const err = await rejection(thrower.session.request('elicitation/create', FORM));
      expect(err.code).to.equal(-32603);
      expect(err.message).to.contain('UI crashed');
    });
  });

  describe('URL mode', () => {
    function urlSetup(answer: 'accept' | 'decline' | 'cancel' = 'accept', extra: Partial<ElicitationOptions> = {}) {
      const log: string[] = [];
      let control: UrlElicitationControl | undefined;
      const url = sinon.spy((req: UrlElicitationRequest, c: UrlElicitationControl) => {
        log.push(`consent ${req.domain}`);
        control = c;
        return answer;
      });
      const openUrl = sinon.spy((u: string) => void log.push(`open ${u}`));
      return { log, url, openUrl, options: { url, openUrl, completionTimeout: 60_000, ...extra }, control: () => control! };
    }

    it('[ELICIT-006] [ELICIT-044] [ELICIT-045] [ELICIT-046] [ELICIT-047] [ELICIT-049] [ELICIT-036] consent sees the full URL and its domain before anything opens; accept goes back after opening', async () => {
      const s = urlSetup('accept');
      const { session, client } = await elicitPair(s.options);
      const states: string[] = [];
      client.elicitations$.subscribe((st) => states.push(st.state));
      const r = await session.request('elicitation/create', URL_PARAMS);
      expect(r).to.deep.equal({ action: 'accept' });
      expect(s.url.firstCall.args[0]).to.deep.include({
        url: URL_PARAMS.url,
        domain: 'auth.example.com',
        elicitationId: 'el-1',
        message: 'Connect your account',
        punycode: false,
        origin: 'request',
      });
      expect(s.url.firstCall.args[0].server).to.deep.equal({ name: 'spec-server', version: '1.0.0' });
      expect(s.log).to.deep.equal(['consent auth.example.com', `open ${URL_PARAMS.url}`]);
      expect(states).to.deep.equal(['consent', 'opening', 'awaiting']);
      session.notify('notifications/elicitation/complete', { elicitationId: 'el-1' });
      await flush();
      expect(states.at(-1)).to.equal('completed');
    });

    it('[ELICIT-046] a declined URL is never opened', async () => {
      const s = urlSetup('decline');
      const { session } = await elicitPair(s.options);
      expect(await session.request('elicitation/create', URL_PARAMS)).to.deep.equal({ action: 'decline' });
      expect(s.openUrl.called).to.equal(false);
    });

    it('a URL that fails to open answers cancel', async () => {
      const { session } = await elicitPair({
        url: () => 'accept',
        openUrl: () => {
          throw new Error('no browser');
        },
      });
      expect(await session.request('elicitation/create', URL_PARAMS)).to.deep.equal({ action: 'cancel' });
    });

    it('[ELICIT-050] a punycode host is flagged for a warning', async () => {
      const s = urlSetup('cancel');
      const { session } = await elicitPair(s.options);
      await session.request('elicitation/create', { ...URL_PARAMS, url: 'https://раураl.com/login' });
      expect(s.url.firstCall.args[0].domain).to.match(/^xn--[a-z0-9-]+\.com$/);
      expect(s.url.firstCall.args[0].punycode).to.equal(true);
    });

    it('an invalid URL, a non-http scheme or a missing elicitationId is answered -32602', async () => {
      const s = urlSetup('accept');
      const { session } = await elicitPair(s.options);
      for (const bad of [{ url: 'not a url' }, { url: 'javascript:alert(1)' }, { url: 'https://user:pw@example.com/' }, { elicitationId: '' }]) {
        const err = await rejection(session.request('elicitation/create', { ...URL_PARAMS, ...bad }));
        expect(err.code, JSON.stringify(bad)).to.equal(-32602);
      }
      expect(s.url.called).to.equal(false);
    });

    it('[ELICIT-018] completions for unknown or already completed ids are ignored', async () => {
      const s = urlSetup('accept');
      const { session, client } = await elicitPair(s.options);
      const warnings: string[] = [];
      client.warnings$.subscribe((w) => warnings.push(w.kind));
      const statuses: ElicitationStatus[] = [];
      client.elicitations$.subscribe((st) => statuses.push(st));
      await session.request('elicitation/create', URL_PARAMS);
      session.notify('notifications/elicitation/complete', { elicitationId: 'nobody' });
      session.notify('notifications/elicitation/complete', { elicitationId: 'el-1' });
      session.notify('notifications/elicitation/complete', { elicitationId: 'el-1' });
      await flush();
      expect(warnings).to.deep.equal(['unknown-elicitation', 'unknown-elicitation']);
      expect(statuses.filter((st) => st.state === 'completed')).to.have.length(1);
    });

    it('[ELICIT-019] no completion in time: reports stale (timer on the session clock), then the user retries or cancels by hand', async () => {
      const s = urlSetup('accept');
      const { session, client, clock } = await elicitPair(s.options);
      const states: string[] = [];
      client.elicitations$.subscribe((st) => states.push(`${st.key}:${st.state}`));
      await session.request('elicitation/create', URL_PARAMS);
      clock.advance(59_999);
      await flush();
      expect(states.at(-1)).to.equal('1:awaiting');
      clock.advance(1);
      expect(states.at(-1)).to.equal('1:stale');
      s.control().retry();
      expect(states.at(-1)).to.equal('1:retried');

      await session.request('elicitation/create', { ...URL_PARAMS, elicitationId: 'el-2' });
      clock.advance(60_000);
      s.control().cancel();
      expect(states.slice(-2)).to.deep.equal(['2:stale', '2:abandoned']);
    });
  });

  describe('-32042: URL elicitation required', () => {
    async function guardedTool(opts: ElicitationOptions = { url: () => 'cancel' }) {
      let authorized = false;
      let calls = 0;
      const p = await elicitPair(opts);
      p.server.onRequest('tools/call', () => {
        calls++;
        if (!authorized) throw new McpError(-32042, 'This request requires more information.', { elicitations: [URL_PARAMS] });
        return { content: [{ type: 'text', text: 'files' }] };
      });
      return { ...p, authorize: () => (authorized = true), calls: () => calls };
    }

    it('surfaces as UrlElicitationRequiredError with the required elicitations', async () => {
      const { client } = await guardedTool();
      const err = await rejection(client.callTool('list_files', {}));
      expect(err).to.be.instanceOf(UrlElicitationRequiredError);
      expect(err.code).to.equal(-32042);
      expect(err.elicitations).to.deep.equal([URL_PARAMS]);
    });

    it('with onUrlElicitationRequired: consent, open, wait for the completion notification, then retry the call', async () => {
      const t = await guardedTool({ url: () => 'cancel', openUrl: () => {} });
      const consent = sinon.spy((_req: UrlElicitationRequest) => 'accept' as const);
      const states: string[] = [];
      t.client.elicitations$.subscribe((st) => states.push(st.state));
      const p = t.client.callTool('list_files', {}, { onUrlElicitationRequired: consent });
      await flush();
      expect(consent.firstCall.args[0]).to.include({ domain: 'auth.example.com', origin: 'error', elicitationId: 'el-1' });
      expect(states.at(-1)).to.equal('awaiting');
      expect(t.calls()).to.equal(1);
      t.authorize();
      t.session.notify('notifications/elicitation/complete', { elicitationId: 'el-1' });
      const r = await p;
      expect(r.content).to.deep.equal([{ type: 'text', text: 'files' }]);
      expect(t.calls()).to.equal(2);
    });

    it('[ELICIT-019] when the completion never comes, a manual retry() retries the original call', async () => {
      const t = await guardedTool();
      let control: UrlElicitationControl | undefined;
      const p = t.client.callTool('list_files', {}, {
        onUrlElicitationRequired: (_req, c) => {
          control = c;
          return 'accept';
        },
      });
      await flush();
      t.authorize();
      control!.retry();
      expect((await p).content).to.have.length(1);
      expect(t.calls()).to.equal(2);
    });

    it('[ELICIT-019] against a server that never sends the completion notification, retries 30 s after consent (simulated clock)', async () => {
      const t = await guardedTool();
      const p = t.client.callTool('list_files', {}, { onUrlElicitationRequired: () => 'accept' });
      await flush();
      t.authorize();
      t.clock.advance(29_999);
      await flush();
      expect(t.calls()).to.equal(1);
      t.clock.advance(1);
      expect((await p).content).to.deep.equal([{ type: 'text', text: 'files' }]);
      expect(t.calls()).to.equal(2);
    });

    it('once the server has sent a completion notification, waits for it rather than retrying early', async () => {
      const t = await guardedTool();
      t.session.notify('notifications/elicitation/complete', { elicitationId: 'unrelated' });
      await flush();
      const p = t.client.callTool('list_files', {}, { onUrlElicitationRequired: () => 'accept' });
      await flush();
      t.authorize();
      t.clock.advance(60_000);
      await flush();
      expect(t.calls()).to.equal(1);
      t.session.notify('notifications/elicitation/complete', { elicitationId: 'el-1' });
      expect((await p).content).to.have.length(1);
      expect(t.calls()).to.equal(2);
    });

    it('a declined required elicitation rejects with ElicitationNotCompletedError and does not retry', async () => {
      const t = await guardedTool();
      const err = await rejection(t.client.callTool('list_files', {}, { onUrlElicitationRequired: () => 'decline' }));
      expect(err).to.be.instanceOf(ElicitationNotCompletedError);
      expect(err.outcome).to.equal('declined');
      expect(err.elicitationId).to.equal('el-1');
      expect(t.calls()).to.equal(1);
    });

    it('gives up after maxElicitationRounds when the server keeps asking', async () => {
      const t = await guardedTool();
      const p = t.client.callTool('list_files', {}, {
        maxElicitationRounds: 1,
        onUrlElicitationRequired: (_req, c) => {
          c.status$.subscribe((st) => st.state === 'awaiting' && c.retry());
          return 'accept';
        },
      });
      const err = await rejection(p);
      expect(err).to.be.instanceOf(UrlElicitationRequiredError);
      expect(t.calls()).to.equal(2);
    });
  });
});
