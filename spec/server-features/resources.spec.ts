import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { McpError } from '../../lib/errors.js';
import { ResourceNotFoundError, ResourcesFeature, type ResourcesInstallOptions } from '../../lib/server-features/resources.js';
import { Server, type ServerSession } from '../../lib/server.js';
import { createMemoryPair } from '../../streams/memory.js';
import { CLIENT_INFO, SERVER_INFO, settle } from '../helpers/raw-peer.js';

interface Env {
  server: Server;
  resources: ResourcesFeature;
  clock: ManualClock;
}

function serverWith(setup: (r: ResourcesFeature) => void = () => {}, options: ResourcesInstallOptions = {}): Env {
  const clock = new ManualClock(1_000);
  const server = new Server({ info: SERVER_INFO, clock });
  const resources = new ResourcesFeature();
  setup(resources);
  resources.install(server, options);
  return { server, resources, clock };
}

async function connectClient(env: Env, options: { versions?: string[] } = {}) {
  const [a, b] = createMemoryPair();
  const session = (await env.server.connect(a)) as ServerSession;
  const client = new Client({ era: 'legacy', info: CLIENT_INFO, journal: true, ...(options.versions && { supportedVersions: options.versions }) });
  const notes: any[] = [];
  client.onNotification('notifications/resources/updated', (p) => void notes.push({ method: 'updated', ...p }));
  client.onNotification('notifications/resources/list_changed', () => void notes.push({ method: 'list_changed' }));
  await client.connect(b);
  await session.whenOperating();
  return { client, session, notes };
}

const errorOf = (p: Promise<unknown>) => p.then(() => expect.fail('expected an error'), (e) => e as McpError);

function registerSample(r: ResourcesFeature) {
  r.registerResource('readme', 'file:///project/README.md', { title: 'Read me', description: 'The readme', mimeType: 'text/markdown', size: 12 }, () => ({
    contents: [{ text: '# Hello\n' }],
  }));
  r.registerResource('logo', 'file:///project/logo.png', { mimeType: 'image/png', icons: [{ src: 'https://x.test/i.png' }], _meta: { 'x.test/k': 1 } }, () => ({
    contents: [{ blob: new Uint8Array([0, 1, 2, 253, 254, 255]) }],
  }));
  r.registerResourceTemplate(
    'user',
    'users://{id}/profile{?fields*}',
    {
      title: 'User profile',
      mimeType: 'application/json',
      list: () => [
        { uri: 'users://1/profile', name: 'alice' },
        { uri: 'users://2/profile', name: 'bob', mimeType: 'text/plain' },
      ],
      complete: { id: (value) => ['1', '2', '10', '11'].filter((v) => v.startsWith(value)) },
    },
    (uri, vars) => ({ contents: [{ uri, text: JSON.stringify(vars) }] }),
  );
}

describe('resources feature', () => {
  describe('capabilities', () => {
    it('[RES-001] declares resources { subscribe, listChanged } once something is registered', async () => {
      const env = serverWith(registerSample);
      const { client } = await connectClient(env);
      expect(client.serverCapabilities?.resources).to.deep.equal({ subscribe: true, listChanged: true });
    });

    it('[RES-001] declares nothing while empty; the first registration declares it for sessions that start after', async () => {
      const env = serverWith();
      const first = await connectClient(env);
      expect(first.client.serverCapabilities?.resources).to.equal(undefined);
      const err = await errorOf(first.client.request('resources/list', {}, { timeout: 1000 }));
      expect(err.code).to.equal(-32601);
      env.resources.registerResource('a', 'mem://a', {}, () => ({ contents: [{ text: 'a' }] }));
      const second = await connectClient(env);
      expect(second.client.serverCapabilities?.resources).to.deep.equal({ subscribe: true, listChanged: true });
    });

    it('declares only what the options keep (no subscribe, no listChanged) and then does not serve subscribe', async () => {
      const env = serverWith(registerSample, { subscribe: false, listChanged: false });
      const { client } = await connectClient(env);
      expect(client.serverCapabilities?.resources).to.deep.equal({});
      const err = await errorOf(client.request('resources/subscribe', { uri: 'file:///project/README.md' }, { timeout: 1000 }));
      expect(err.code).to.equal(-32601);
    });
  });

  describe('resources/list and resources/templates/list', () => {
    it('lists static resources, then what templates list (template fields fill the gaps)', async () => {
      const env = serverWith(registerSample);
      const { client } = await connectClient(env);
      const r = await client.request('resources/list');
      expect(r).to.deep.equal({
        resources: [
          { uri: 'file:///project/README.md', name: 'readme', title: 'Read me', description: 'The readme', mimeType: 'text/markdown', size: 12 },
          { uri: 'file:///project/logo.png', name: 'logo', mimeType: 'image/png', icons: [{ src: 'https://x.test/i.png' }], _meta: { 'x.test/k': 1 } },
          { uri: 'users://1/profile', name: 'alice', title: 'User profile', mimeType: 'application/json' },
          { uri: 'users://2/profile', name: 'bob', title: 'User profile', mimeType: 'text/plain' },
        ],
      });
      const t = await client.request('resources/templates/list');
      expect(t).to.deep.equal({ resourceTemplates: [{ uriTemplate: 'users://{id}/profile{?fields*}', name: 'user', title: 'User profile', mimeType: 'application/json' }] });
    });

    it('leaves out what the negotiated revision does not have (icons; title and _meta before 2025-06-18)', async () => {
      const env = serverWith(registerSample);
      const june = await connectClient(env, { versions: ['2025-06-18'] });
      const r1 = (await june.client.request('resources/list')) as any;
      expect(r1.resources[0].title).to.equal('Read me');
      expect(r1.resources[1]).to.not.have.property('icons');
      expect(r1.resources[1]._meta).to.deep.equal({ 'x.test/k': 1 });
      const march = await connectClient(env, { versions: ['2025-03-26'] });
      const r2 = (await march.client.request('resources/list')) as any;
      expect(r2.resources[0]).to.not.have.property('title');
      expect(r2.resources[1]).to.not.have.property('_meta');
      const t2 = (await march.client.request('resources/templates/list')) as any;
      expect(t2.resourceTemplates[0]).to.not.have.property('title');
    });

    it('[PAGE-002] paginates with opaque cursors; a missing nextCursor ends the list', async () => {
      const env = serverWith((r) => {
        for (let i = 1; i <= 5; i++) r.registerResource(`r${i}`, `mem://r${i}`, {}, () => ({ contents: [{ text: '' }] }));
      }, { pageSize: 2 });
      const { client } = await connectClient(env);
      const p1 = (await client.request('resources/list')) as any;
      expect(p1.resources.map((x: any) => x.name)).to.deep.equal(['r1', 'r2']);
      expect(p1.nextCursor).to.be.a('string').and.to.not.include('r2');
      const page2 = (await client.request('resources/list', { cursor: p1.nextCursor })) as any;
      expect(page2.resources.map((x: any) => x.name)).to.deep.equal(['r3', 'r4']);
      const page3 = (await client.request('resources/list', { cursor: page2.nextCursor })) as any;
      expect(page3.resources.map((x: any) => x.name)).to.deep.equal(['r5']);
      expect(page3).to.not.have.property('nextCursor');
    });

    it('[PAGE-002] a removal between pages does not shift the next page', async () => {
      const handles: any[] = [];
      const env = serverWith((r) => {
        for (let i = 1; i <= 4; i++) handles.push(r.registerResource(`r${i}`, `mem://r${i}`, {}, () => ({ contents: [{ text: '' }] })));
      }, { pageSize: 2 });
      const { client } = await connectClient(env);
      const p1 = (await client.request('resources/list')) as any;
      handles[0].remove();
      const p2 = (await client.request('resources/list', { cursor: p1.nextCursor })) as any;
      expect(p2.resources.map((x: any) => x.name)).to.deep.equal(['r3', 'r4']);
    });

    it('pages run on into the templates\' listed resources', async () => {
      const env = serverWith(registerSample, { pageSize: 3 });
      const { client } = await connectClient(env);
      const p1 = (await client.request('resources/list')) as any;
      expect(p1.resources.map((x: any) => x.name)).to.deep.equal(['readme', 'logo', 'alice']);
      const p2 = (await client.request('resources/list', { cursor: p1.nextCursor })) as any;
      expect(p2.resources.map((x: any) => x.name)).to.deep.equal(['bob']);
      expect(p2).to.not.have.property('nextCursor');
    });

    it('[PAGE-003] [PAGE-009] an invalid cursor is -32602 (garbage, tampered, from the other list, too long)', async () => {
      const env = serverWith((r) => {
        for (let i = 1; i <= 3; i++) {
          r.registerResource(`r${i}`, `mem://r${i}`, {}, () => ({ contents: [{ text: '' }] }));
          r.registerResourceTemplate(`t${i}`, `mem://t${i}/{x}`, {}, () => ({ contents: [] }));
        }
      }, { pageSize: 1 });
      const { client } = await connectClient(env);
      const templatesCursor = ((await client.request('resources/templates/list')) as any).nextCursor as string;
      const forged = Buffer.from(JSON.stringify({ k: 'r', p: [7, -1, 0] })).toString('base64url');
      for (const cursor of ['nope!', 'bm9wZQ', forged, templatesCursor, 'A'.repeat(300), 42, '']) {
        const err = await errorOf(client.request('resources/list', { cursor } as any));
        expect(err.code, String(cursor)).to.equal(-32602);
        expect(err.message).to.match(/Invalid cursor/);
      }
      const err = await errorOf(client.request('resources/templates/list', { cursor: 'zzz' }));
      expect(err.code).to.equal(-32602);
    });
  });

  describe('resources/read', () => {
    it('reads text, and binary as base64 ([RES-010] binary data properly encoded)', async () => {
      const env = serverWith(registerSample);
      const { client } = await connectClient(env);
      expect(await client.request('resources/read', { uri: 'file:///project/README.md' })).to.deep.equal({
        contents: [{ uri: 'file:///project/README.md', mimeType: 'text/markdown', text: '# Hello\n' }],
      });
      const png = (await client.request('resources/read', { uri: 'file:///project/logo.png' })) as any;
      expect(png.contents[0]).to.deep.equal({ uri: 'file:///project/logo.png', mimeType: 'image/png', blob: Buffer.from([0, 1, 2, 253, 254, 255]).toString('base64') });
    });

    it('reads through a template with its variables, percent-decoded', async () => {
      const env = serverWith(registerSample);
      const { client } = await connectClient(env);
      const r = (await client.request('resources/read', { uri: 'users://a%20b/profile?x=1&y=2' })) as any;
      expect(JSON.parse(r.contents[0].text)).to.deep.equal({ id: 'a b', fields: { x: '1', y: '2' } });
      expect(r.contents[0].mimeType).to.equal('application/json');
    });

    it('[RES-006] an unknown URI is -32002 "Resource not found" with data.uri', async () => {
      const env = serverWith(registerSample);
      const { client } = await connectClient(env);
      const err = await errorOf(client.request('resources/read', { uri: 'file:///nonexistent.txt' }));
      expect(err.code).to.equal(-32002);
      expect(err.message).to.equal('Resource not found');
      expect(err.data).to.deep.equal({ uri: 'file:///nonexistent.txt' });
    });

    it('[RES-006] a read callback can say not found itself (ResourceNotFoundError)', async () => {
      const env = serverWith((r) =>
        r.registerResourceTemplate('files', 'file:///{+path}', {}, (uri) => {
          throw new ResourceNotFoundError(uri);
        }),
      );
      const { client } = await connectClient(env);
      const err = await errorOf(client.request('resources/read', { uri: 'file:///gone.txt' }));
      expect(err.code).to.equal(-32002);
      expect(err.data).to.deep.equal({ uri: 'file:///gone.txt' });
    });

    it('[RES-007] a failing read callback, or one returning invalid contents, is -32603', async () => {
      const env = serverWith((r) => {
        r.registerResource('boom', 'mem://boom', {}, () => {
          throw new Error('disk on fire');
        });
        r.registerResource('badblob', 'mem://badblob', {}, () => ({ contents: [{ blob: 'not base64!' }] }));
        r.registerResource('both', 'mem://both', {}, () => ({ contents: [{ text: 'a', blob: 'AA==' } as any] }));
        r.registerResource('shape', 'mem://shape', {}, () => 'text' as any);
      });
      const { client } = await connectClient(env);
      for (const [uri, re] of [
        ['mem://boom', /disk on fire/],
        ['mem://badblob', /base64/],
        ['mem://both', /exactly one/],
        ['mem://shape', /contents/],
      ] as const) {
        const err = await errorOf(client.request('resources/read', { uri }));
        expect(err.code, uri).to.equal(-32603);
        expect(err.message).to.match(re);
      }
    });

    it('[RES-008] validates URIs: missing, not a URI, malformed escapes, too long → -32602', async () => {
      const env = serverWith(registerSample, { maxUriLength: 60_000 });
      const { client } = await connectClient(env);
      const cases: [unknown, RegExp][] = [
        [undefined, /"uri" must be a string/],
        [42, /"uri" must be a string/],
        ['not a uri', /Invalid resource URI/],
        ['users://a b/profile', /not allowed/],
        ['users://%E0%A4/profile', /malformed percent-encoding/],
        ['users://%zz/profile', /%/],
        ['users://' + 'a'.repeat(60_001), /at most 60000/],
      ];
      for (const [uri, re] of cases) {
        const err = await errorOf(client.request('resources/read', uri === undefined ? {} : { uri } as any));
        expect(err.code, String(uri).slice(0, 40)).to.equal(-32602);
        expect(err.message).to.match(re);
      }
    });

    it('[RES-008] a 50,000-character URI crafted against the templates is answered (-32002), not hung on', async () => {
      const env = serverWith((r) => {
        r.registerResourceTemplate('a', 'x://{a}-{b}-{c}-{d}-{e}.json', {}, () => ({ contents: [] }));
        r.registerResourceTemplate('b', 'x://{+a}/{+b}/{+c}/end', {}, () => ({ contents: [] }));
        r.registerResourceTemplate('c', 'x://{a}{b}{c}{d}{e}z', {}, () => ({ contents: [] }));
      });
      const { client } = await connectClient(env);
      for (const uri of ['x://' + '-'.repeat(50_000), 'x://' + '/'.repeat(50_000), 'x://' + 'a-'.repeat(25_000) + '!']) {
        const err = await errorOf(client.request('resources/read', { uri }));
        expect(err.code).to.equal(-32002);
        expect((err.data as any).truncated).to.equal(true);
        expect((err.data as any).uri.length).to.equal(2048);
      }
    });
  });

  describe('subscriptions', () => {
    it('subscribe and unsubscribe answer exactly {}; updates go to subscribed sessions only', async () => {
      const env = serverWith(registerSample);
      const one = await connectClient(env);
      const two = await connectClient(env);
      expect(await one.client.request('resources/subscribe', { uri: 'file:///project/README.md' })).to.deep.equal({});
      expect(await one.client.request('resources/subscribe', { uri: 'users://1/profile' })).to.deep.equal({});
      expect(env.resources.notifyUpdated('file:///project/README.md')).to.equal(1);
      expect(env.resources.notifyUpdated('file:///project/logo.png')).to.equal(0);
      await settle();
      expect(one.notes).to.deep.equal([{ method: 'updated', uri: 'file:///project/README.md' }]);
      expect(two.notes).to.deep.equal([]);
      expect(await one.client.request('resources/unsubscribe', { uri: 'file:///project/README.md' })).to.deep.equal({});
      expect(await one.client.request('resources/unsubscribe', { uri: 'file:///never-subscribed' })).to.deep.equal({});
      expect(env.resources.notifyUpdated('file:///project/README.md')).to.equal(0);
      expect([...env.resources.subscriptionsOf(one.session)]).to.deep.equal(['users://1/profile']);
    });

    it('[RES-006] subscribing to an unknown resource is -32002; to a malformed URI -32602', async () => {
      const env = serverWith(registerSample);
      const { client } = await connectClient(env);
      expect((await errorOf(client.request('resources/subscribe', { uri: 'mem://nothing' }))).code).to.equal(-32002);
      expect((await errorOf(client.request('resources/subscribe', { uri: 'nothing' }))).code).to.equal(-32602);
    });

    it('a closed session\'s subscriptions are dropped', async () => {
      const env = serverWith(registerSample);
      const { client, session } = await connectClient(env);
      await client.request('resources/subscribe', { uri: 'file:///project/README.md' });
      await client.close();
      await settle();
      expect(env.resources.subscriptionsOf(session).size).to.equal(0);
      expect(env.resources.notifyUpdated('file:///project/README.md')).to.equal(0);
    });

    it('limits subscriptions per session', async () => {
      const env = serverWith(registerSample, { maxSubscriptionsPerSession: 1 });
      const { client } = await connectClient(env);
      await client.request('resources/subscribe', { uri: 'file:///project/README.md' });
      await client.request('resources/subscribe', { uri: 'file:///project/README.md' });
      const err = await errorOf(client.request('resources/subscribe', { uri: 'file:///project/logo.png' }));
      expect(err.code).to.equal(-32602);
    });
  });

  describe('list_changed, derived from the registry', () => {
    it('[RES-002] one debounced notification per burst of changes, on the server clock', async () => {
      const env = serverWith(registerSample, { listChangedDebounceMs: 100 });
      const { notes } = await connectClient(env);
      const h = env.resources.registerResource('new', 'mem://new', {}, () => ({ contents: [] }));
      h.update({ title: 'New' });
      env.clock.advance(99);
      await settle();
      expect(notes).to.deep.equal([]);
      env.clock.advance(1);
      await settle();
      expect(notes).to.deep.equal([{ method: 'list_changed' }]);
      h.remove();
      env.clock.advance(100);
      await settle();
      expect(notes).to.have.length(2);
    });

    it('[RES-002] a change that does not touch the list (a new read callback) sends nothing; notifyListChanged does', async () => {
      const env = serverWith(registerSample);
      const { notes } = await connectClient(env);
      const h = env.resources.registerResource('x', 'mem://x', {}, () => ({ contents: [] }));
      env.clock.advance(0);
      await settle();
      expect(notes).to.have.length(1);
      h.update({ read: () => ({ contents: [{ text: 'v2' }] }) });
      env.clock.advance(10);
      await settle();
      expect(notes).to.have.length(1);
      env.resources.notifyListChanged();
      env.clock.advance(0);
      await settle();
      expect(notes).to.have.length(2);
    });

    it('nothing is sent when listChanged is off', async () => {
      const env = serverWith(registerSample, { listChanged: false });
      const { notes } = await connectClient(env);
      env.resources.registerResource('x', 'mem://x', {}, () => ({ contents: [] }));
      env.clock.advance(1000);
      await settle();
      expect(notes).to.deep.equal([]);
    });

    it('state$ shows the registry as immutable snapshots', () => {
      const r = new ResourcesFeature();
      const states: any[] = [];
      r.state$.subscribe((s) => states.push(s));
      const h = r.registerResource('a', 'mem://a', {}, () => ({ contents: [] }));
      h.update({ name: 'b', uri: 'mem://b' });
      expect(states).to.have.length(3);
      expect(Object.isFrozen(states[1].resources)).to.equal(true);
      expect(Object.keys(states[1].resources)).to.deep.equal(['mem://a']);
      expect(Object.keys(states[2].resources)).to.deep.equal(['mem://b']);
      expect(h.name).to.equal('b');
      expect(h.uri).to.equal('mem://b');
    });
  });

  describe('registration', () => {
    it('[RES-005] registered URIs must be RFC 3986 URIs (custom schemes welcome); duplicates refused', () => {
      const r = new ResourcesFeature();
      r.registerResource('ok', 'custom+app.v2://thing/1', {}, () => ({ contents: [] }));
      expect(() => r.registerResource('dup', 'custom+app.v2://thing/1', {}, () => ({ contents: [] }))).to.throw(/already registered/);
      expect(() => r.registerResource('bad', 'my scheme://x', {}, () => ({ contents: [] }))).to.throw(/Invalid resource URI/);
      expect(() => r.registerResource('rel', '/relative/path', {}, () => ({ contents: [] }))).to.throw(/scheme/);
      expect(() => r.registerResource('', 'mem://x', {}, () => ({ contents: [] }))).to.throw(/name/);
      expect(() => r.registerResource('size', 'mem://y', { size: -1 }, () => ({ contents: [] }))).to.throw(/size/);
      expect(() => r.registerResource('prio', 'mem://z', { annotations: { priority: 2 } }, () => ({ contents: [] }))).to.throw(/priority/);
    });

    it('templates must parse; complete may only name template variables; names and templates are unique', () => {
      const r = new ResourcesFeature();
      r.registerResourceTemplate('t', 'mem://{a}', {}, () => ({ contents: [] }));
      expect(() => r.registerResourceTemplate('t', 'mem://{b}/x', {}, () => ({ contents: [] }))).to.throw(/already registered/);
      expect(() => r.registerResourceTemplate('u', 'mem://{a}', {}, () => ({ contents: [] }))).to.throw(/already registered/);
      expect(() => r.registerResourceTemplate('v', 'mem://{a', {}, () => ({ contents: [] }))).to.throw(/Unclosed/);
      expect(() => r.registerResourceTemplate('w', 'mem://{a}/w', { complete: { b: () => [] } }, () => ({ contents: [] }))).to.throw(/not a variable/);
    });

    it('handles update and remove; a removed resource reads as not found', async () => {
      let handle: any;
      const env = serverWith((r) => {
        handle = r.registerResource('a', 'mem://a', { title: 'A' }, () => ({ contents: [{ text: 'a' }] }));
      });
      const { client } = await connectClient(env);
      handle.update({ uri: 'mem://b', title: undefined, description: 'now b' });
      const list = (await client.request('resources/list')) as any;
      expect(list.resources).to.deep.equal([{ uri: 'mem://b', name: 'a', description: 'now b' }]);
      handle.remove();
      expect((await errorOf(client.request('resources/read', { uri: 'mem://b' }))).code).to.equal(-32002);
    });
  });

  describe('completion of template variables', () => {
    it('completes a variable from what was typed, with context arguments', async () => {
      const r = new ResourcesFeature();
      let seen: any;
      r.registerResourceTemplate(
        'repo',
        'git://{owner}/{repo}',
        {
          complete: {
            repo: (value, context) => {
              seen = context;
              return ['alpha', 'beta', 'alpine'].filter((x) => x.startsWith(value));
            },
          },
        },
        () => ({ contents: [] }),
      );
      expect(await r.complete({ type: 'ref/resource', uri: 'git://{owner}/{repo}' }, { name: 'repo', value: 'al' }, { arguments: { owner: 'me' } })).to.deep.equal({
        values: ['alpha', 'alpine'],
        total: 2,
        hasMore: false,
      });
      expect(seen).to.deep.equal({ arguments: { owner: 'me' } });
      expect(await r.complete({ type: 'ref/resource', uri: 'git://{owner}/{repo}' }, { name: 'owner', value: '' })).to.deep.equal({ values: [] });
      expect(r.hasCompletions).to.equal(true);
    });

    it('returns at most 100 values, with total and hasMore', async () => {
      const r = new ResourcesFeature();
      r.registerResourceTemplate('n', 'n://{i}', { complete: { i: () => Array.from({ length: 250 }, (_, i) => String(i)) } }, () => ({ contents: [] }));
      const got = await r.complete({ type: 'ref/resource', uri: 'n://{i}' }, { name: 'i', value: '' });
      expect(got.values).to.have.length(100);
      expect(got.total).to.equal(250);
      expect(got.hasMore).to.equal(true);
    });

    it('[COMPL-013] validates its inputs: unknown template or variable is -32602; a static resource completes to nothing', async () => {
      const r = new ResourcesFeature();
      registerSample(r);
      const e1 = await errorOf(r.complete({ type: 'ref/resource', uri: 'nope://{x}' }, { name: 'x', value: '' }));
      expect(e1.code).to.equal(-32602);
      const e2 = await errorOf(r.complete({ type: 'ref/resource', uri: 'users://{id}/profile{?fields*}' }, { name: 'nope', value: '' }));
      expect(e2.code).to.equal(-32602);
      const e3 = await errorOf(r.complete({ type: 'ref/resource', uri: 'users://{id}/profile{?fields*}' }, { name: 'id', value: 5 as any }));
      expect(e3.code).to.equal(-32602);
      expect(await r.complete({ type: 'ref/resource', uri: 'file:///project/README.md' }, { name: 'x', value: '' })).to.deep.equal({ values: [] });
    });
  });
});
