import { expect } from 'chai';
import { CapabilityError, McpError, ResourceNotFoundError } from '../../lib/errors.js';
import type { LoggingMessageNotificationParams, ResourceUpdatedNotificationParams } from '../../lib/protocol/schema/index.js';
import { flush, pair, rejection } from './helpers.js';

describe('client features: resources, prompts, completion, logging', () => {
  describe('resources', () => {
    async function resourceServer() {
      const p = await pair({
        serverCapabilities: { resources: { subscribe: true, listChanged: true } },
        setup: (_c, server) => {
          server.onRequest('resources/list', (params) =>
            params?.cursor === 'c2'
              ? { resources: [{ uri: 'file:///b', name: 'b' }] }
              : { resources: [{ uri: 'file:///a', name: 'a' }], nextCursor: 'c2' },
          );
          server.onRequest('resources/templates/list', () => ({ resourceTemplates: [{ uriTemplate: 'file:///{path}', name: 'files' }] }));
          server.onRequest('resources/read', (params) => ({ contents: [{ uri: params?.uri as string, text: 'hello' }] }));
          server.onRequest('resources/subscribe', () => ({}));
          server.onRequest('resources/unsubscribe', () => ({}));
        },
      });
      return p;
    }

    it('[PAGE-004] listResources gathers every page; listResourceTemplates and readResource return the results', async () => {
      const { client } = await resourceServer();
      expect((await client.listResources()).map((r) => r.uri)).to.deep.equal(['file:///a', 'file:///b']);
      expect(await client.listResourceTemplates()).to.deep.equal([{ uriTemplate: 'file:///{path}', name: 'files' }]);
      expect(await client.readResource('file:///a')).to.deep.equal({ contents: [{ uri: 'file:///a', text: 'hello' }] });
      const sizes: number[] = [];
      for await (const page of client.pagesOfResources()) sizes.push(page.resources.length);
      expect(sizes).to.deep.equal([1, 1]);
    });

    it('[RES-032] a resource the server does not have rejects with ResourceNotFoundError, for -32002 (earlier revisions) and for -32602 naming the URI (2026-07-28); other invalid params stay McpError', async () => {
      const { client } = await pair({
        serverCapabilities: { resources: {} },
        setup: (_c, server) => {
          server.onRequest('resources/read', (params) => {
            const uri = params?.uri as string;
            if (uri === 'file:///old') throw new McpError(-32002, 'Resource not found', { uri });
            if (uri === 'file:///new') throw new McpError(-32602, 'Resource not found', { uri });
            if (uri === 'file:///worded') throw new McpError(-32602, 'No such resource: not found');
            throw new McpError(-32602, 'Invalid URI: unsupported scheme', { reason: 'scheme' });
          });
        },
      });
      for (const [uri, code] of [['file:///old', -32002], ['file:///new', -32602], ['file:///worded', -32602]] as const) {
        const e = await client.readResource(uri).then(() => undefined, (err: unknown) => err);
        expect(e, uri).to.be.instanceOf(ResourceNotFoundError);
        expect((e as ResourceNotFoundError).uri).to.equal(uri);
        expect((e as ResourceNotFoundError).code, uri).to.equal(code); // what the server said is kept
      }
      const other = await client.readResource({ uri: 'gopher://x' }).then(() => undefined, (err: unknown) => err);
      expect(other).to.be.instanceOf(McpError);
      expect(other).to.not.be.instanceOf(ResourceNotFoundError);
      expect((other as McpError).data).to.deep.equal({ reason: 'scheme' });
    });

    it('subscribe(uri) sends resources/subscribe once, delivers updates for that URI only, and unsubscribes after the last observer', async () => {
      const { client, session, received, clientOut } = await resourceServer();
      const a: ResourceUpdatedNotificationParams[] = [];
      const b: ResourceUpdatedNotificationParams[] = [];
      const subA = client.subscribe('file:///a').subscribe((u) => a.push(u));
      const subB = client.subscribe('file:///a').subscribe((u) => b.push(u));
      await flush();
      expect(received.filter((m) => m === 'resources/subscribe')).to.have.length(1);
      session.notify('notifications/resources/updated', { uri: 'file:///a' });
      session.notify('notifications/resources/updated', { uri: 'file:///other' });
      await flush();
      expect(a).to.deep.equal([{ uri: 'file:///a' }]);
      expect(b).to.deep.equal([{ uri: 'file:///a' }]);
      subA.unsubscribe();
      await flush();
      expect(received).to.not.include('resources/unsubscribe');
      subB.unsubscribe();
      await flush();
      expect(received.filter((m) => m === 'resources/unsubscribe')).to.have.length(1);
      const unsub = clientOut.find((f) => f.method === 'resources/unsubscribe');
      expect(unsub.params).to.deep.equal({ uri: 'file:///a' });
      // A new observer subscribes again.
      client.subscribe('file:///a').subscribe();
      await flush();
      expect(received.filter((m) => m === 'resources/subscribe')).to.have.length(2);
    });

    it('a failed resources/subscribe errors the observable', async () => {
      const { client, server } = await resourceServer();
      server.onRequest('resources/subscribe', () => {
        throw new Error('nope');
      });
      const err = await new Promise<any>((resolve) => client.subscribe('file:///x').subscribe({ error: resolve }));
      expect(err.message).to.equal('nope');
    });

    it('subscribe to a server without resources.subscribe fails before sending', async () => {
      const { client, received } = await pair({ serverCapabilities: { resources: {} } });
      const err = await new Promise<any>((resolve) => client.subscribe('file:///x').subscribe({ error: resolve }));
      expect(err).to.be.instanceOf(CapabilityError);
      expect(received).to.not.include('resources/subscribe');
    });

    it('resources$ re-lists on notifications/resources/list_changed', async () => {
      const { client, session, clock, received } = await resourceServer();
      const seen: number[] = [];
      client.resources$.subscribe((r) => seen.push(r.length));
      await flush();
      session.notify('notifications/resources/list_changed');
      await flush();
      clock.advance(50);
      await flush();
      expect(seen).to.deep.equal([2, 2]);
      expect(received.filter((m) => m === 'resources/list')).to.have.length(4);
    });
  });

  describe('prompts', () => {
    it('[PROMPT-012] listPrompts handles pagination; getPrompt sends name and arguments; prompts$ follows list_changed', async () => {
      const { client, session, clock } = await pair({
        serverCapabilities: { prompts: { listChanged: true } },
        setup: (_c, server) => {
          server.onRequest('prompts/list', (params) =>
            params?.cursor ? { prompts: [{ name: 'second' }] } : { prompts: [{ name: 'first', arguments: [{ name: 'x', required: true }] }], nextCursor: '!opaque!' },
          );
          server.onRequest('prompts/get', (params) => ({
            messages: [{ role: 'user', content: { type: 'text', text: `${params?.name}:${(params?.arguments as any)?.x}` } }],
          }));
        },
      });
      expect((await client.listPrompts()).map((p) => p.name)).to.deep.equal(['first', 'second']);
      const got = await client.getPrompt('first', { x: '42' });
      expect(got.messages[0]!.content).to.deep.equal({ type: 'text', text: 'first:42' });
      const seen: string[][] = [];
      client.prompts$.subscribe((p) => seen.push(p.map((x) => x.name)));
      session.notify('notifications/prompts/list_changed');
      await flush();
      clock.advance(50);
      await flush();
      expect(seen).to.deep.equal([
        ['first', 'second'],
        ['first', 'second'],
      ]);
    });
  });

  describe('completion', () => {
    it('complete(ref, argument, context) sends the context in revisions that have it', async () => {
      let seen: any;
      const { client } = await pair({
        serverCapabilities: { completions: {} },
        setup: (_c, server) =>
          server.onRequest('completion/complete', (params) => {
            seen = params;
            return { completion: { values: ['python', 'pytorch'], hasMore: false } };
          }),
      });
      const r = await client.complete({ type: 'ref/prompt', name: 'code' }, { name: 'lang', value: 'py' }, { arguments: { kind: 'ml' } });
      expect(r.completion.values).to.deep.equal(['python', 'pytorch']);
      expect(seen).to.deep.equal({ ref: { type: 'ref/prompt', name: 'code' }, argument: { name: 'lang', value: 'py' }, context: { arguments: { kind: 'ml' } } });
    });

    it('drops context in 2025-03-26, which does not have it', async () => {
      let seen: any;
      const { client } = await pair({
        supportedVersions: ['2025-03-26'],
        serverCapabilities: { completions: {} },
        setup: (_c, server) =>
          server.onRequest('completion/complete', (params) => {
            seen = params;
            return { completion: { values: [] } };
          }),
      });
      await client.complete({ type: 'ref/resource', uri: 'file:///{p}' }, { name: 'p', value: '' }, { arguments: { a: 'b' } });
      expect(seen).to.not.have.property('context');
    });
  });

  describe('logging', () => {
    it('setLoggingLevel sends logging/setLevel; logs$ carries notifications/message; a user handler still runs', async () => {
      let level: unknown;
      const { client, session } = await pair({
        serverCapabilities: { logging: {} },
        setup: (_c, server) =>
          server.onRequest('logging/setLevel', (params) => {
            level = params?.level;
            return {};
          }),
      });
      const logs: LoggingMessageNotificationParams[] = [];
      const userSaw: unknown[] = [];
      client.logs$.subscribe((l) => logs.push(l));
      client.onNotification('notifications/message', (p) => void userSaw.push(p));
      await client.setLoggingLevel('warning');
      expect(level).to.equal('warning');
      session.notify('notifications/message', { level: 'error', logger: 'db', data: { msg: 'down' } });
      await flush();
      expect(logs).to.deep.equal([{ level: 'error', logger: 'db', data: { msg: 'down' } }]);
      expect(userSaw).to.have.length(1);
      expect(await rejection(client.setLoggingLevel('loud' as any))).to.be.instanceOf(TypeError);
    });
  });
});
