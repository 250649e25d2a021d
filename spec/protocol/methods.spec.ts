import { expect } from 'chai';
import {
  METHODS,
  MODERN_CLIENT_REQUESTS,
  capabilitiesPermit,
  hasCapability,
  isKnownMethod,
  isKnownNotificationMethod,
  isMethodInRevision,
  isNotificationMethod,
  isRequestMethod,
  maySend,
  methodInfo,
  requiredCapability,
  supportsElicitationMode,
} from '../../lib/protocol/methods.js';
import { SUPPORTED_REVISIONS, allows } from '../../lib/protocol/revisions.js';
import type { ClientCapabilities, ServerCapabilities } from '../../lib/protocol/schema.js';

describe('protocol/methods', () => {
  describe('the table', () => {
    it('knows every method of the 2025-11-25 schema', () => {
      // Written out from the schema's ClientRequest/ServerRequest/…Notification unions.
      const expected = [
        'ping',
        'initialize',
        'completion/complete',
        'logging/setLevel',
        'prompts/get',
        'prompts/list',
        'resources/list',
        'resources/templates/list',
        'resources/read',
        'resources/subscribe',
        'resources/unsubscribe',
        'tools/call',
        'tools/list',
        'tasks/get',
        'tasks/result',
        'tasks/list',
        'tasks/cancel',
        'sampling/createMessage',
        'roots/list',
        'elicitation/create',
        'notifications/cancelled',
        'notifications/progress',
        'notifications/initialized',
        'notifications/roots/list_changed',
        'notifications/tasks/status',
        'notifications/message',
        'notifications/resources/updated',
        'notifications/resources/list_changed',
        'notifications/tools/list_changed',
        'notifications/prompts/list_changed',
        'notifications/elicitation/complete',
      ];
      expect([...METHODS].sort()).to.deep.equal([...expected].sort());
    });

    it('names every notification notifications/… and nothing else so', () => {
      for (const m of METHODS) {
        const info = methodInfo(m)!;
        expect(info.kind === 'notification', m).to.equal(isNotificationMethod(m));
        expect(isKnownNotificationMethod(m), m).to.equal(info.kind === 'notification');
        expect(isRequestMethod(m), m).to.equal(info.kind === 'request');
      }
    });

    it('returns undefined for unknown methods and inherited property names', () => {
      for (const m of ['tools/delete', '', 'constructor', 'toString', '__proto__', 'Ping', 'notifications/foo']) {
        expect(methodInfo(m), m).to.equal(undefined);
        expect(isKnownMethod(m), m).to.equal(false);
        expect(requiredCapability(m), m).to.equal(undefined);
        expect(maySend(m, 'client'), m).to.equal(false);
      }
    });

    it('isNotificationMethod is true for any notifications/* name, known or not', () => {
      expect(isNotificationMethod('notifications/custom/thing')).to.equal(true);
      expect(isNotificationMethod('notifications/initialized')).to.equal(true);
      expect(isNotificationMethod('tools/list')).to.equal(false);
      expect(isNotificationMethod('notification/initialized')).to.equal(false);
      expect(isNotificationMethod('x/notifications/y')).to.equal(false);
    });

    it('says who may send each method', () => {
      const cases: [string, 'client' | 'server' | 'both'][] = [
        ['initialize', 'client'],
        ['notifications/initialized', 'client'],
        ['ping', 'both'],
        ['notifications/cancelled', 'both'],
        ['notifications/progress', 'both'],
        ['tools/call', 'client'],
        ['resources/subscribe', 'client'],
        ['completion/complete', 'client'],
        ['logging/setLevel', 'client'],
        ['notifications/message', 'server'],
        ['notifications/tools/list_changed', 'server'],
        ['notifications/resources/updated', 'server'],
        ['sampling/createMessage', 'server'],
        ['elicitation/create', 'server'],
        ['notifications/elicitation/complete', 'server'],
        ['roots/list', 'server'],
        ['notifications/roots/list_changed', 'client'],
        ['tasks/get', 'both'],
        ['notifications/tasks/status', 'both'],
      ];
      for (const [m, sender] of cases) {
        expect(methodInfo(m)?.sender, m).to.equal(sender);
        expect(maySend(m, 'client'), `${m} by client`).to.equal(sender !== 'server');
        expect(maySend(m, 'server'), `${m} by server`).to.equal(sender !== 'client');
      }
    });

    it('gives the capability each method needs, and whose', () => {
      const cases: [string, string[] | undefined, 'receiver' | 'sender' | undefined][] = [
        ['initialize', undefined, undefined],
        ['ping', undefined, undefined],
        ['notifications/progress', undefined, undefined],
        ['notifications/cancelled', undefined, undefined],
        ['tools/list', ['tools'], 'receiver'],
        ['tools/call', ['tools'], 'receiver'],
        ['resources/list', ['resources'], 'receiver'],
        ['resources/templates/list', ['resources'], 'receiver'],
        ['resources/read', ['resources'], 'receiver'],
        ['resources/subscribe', ['resources', 'subscribe'], 'receiver'],
        ['resources/unsubscribe', ['resources', 'subscribe'], 'receiver'],
        ['prompts/list', ['prompts'], 'receiver'],
        ['prompts/get', ['prompts'], 'receiver'],
        ['completion/complete', ['completions'], 'receiver'],
        ['logging/setLevel', ['logging'], 'receiver'],
        ['sampling/createMessage', ['sampling'], 'receiver'],
        ['elicitation/create', ['elicitation'], 'receiver'],
        ['roots/list', ['roots'], 'receiver'],
        ['tasks/list', ['tasks', 'list'], 'receiver'],
        ['tasks/cancel', ['tasks', 'cancel'], 'receiver'],
        ['notifications/elicitation/complete', ['elicitation', 'url'], 'receiver'],
        ['notifications/message', ['logging'], 'sender'],
        ['notifications/roots/list_changed', ['roots', 'listChanged'], 'sender'],
        ['notifications/tools/list_changed', ['tools', 'listChanged'], 'sender'],
        ['notifications/prompts/list_changed', ['prompts', 'listChanged'], 'sender'],
        ['notifications/resources/list_changed', ['resources', 'listChanged'], 'sender'],
        ['notifications/resources/updated', ['resources', 'subscribe'], 'sender'],
      ];
      for (const [m, path, of] of cases) {
        expect(requiredCapability(m), m).to.deep.equal(path);
        expect(methodInfo(m)?.capability?.of, m).to.equal(of);
      }
    });

    it('hands out copies of capability paths', () => {
      const p = requiredCapability('resources/subscribe')!;
      p.push('mutated');
      expect(requiredCapability('resources/subscribe')).to.deep.equal(['resources', 'subscribe']);
    });

    it('drops the completions requirement in 2024-11-05, which had no such capability', () => {
      expect(requiredCapability('completion/complete', '2024-11-05')).to.equal(undefined);
      for (const r of ['2025-03-26', '2025-06-18', '2025-11-25'] as const) {
        expect(requiredCapability('completion/complete', r), r).to.deep.equal(['completions']);
      }
      expect(requiredCapability('tools/call', '2024-11-05')).to.deep.equal(['tools']);
    });
  });

  describe('revisions of methods', () => {
    it('has elicitation from 2025-06-18, its completion notification and tasks from 2025-11-25', () => {
      const inRevs = (m: string) => SUPPORTED_REVISIONS.filter((r) => isMethodInRevision(m, r));
      expect(inRevs('elicitation/create')).to.deep.equal(['2025-11-25', '2025-06-18']);
      expect(inRevs('notifications/elicitation/complete')).to.deep.equal(['2025-11-25']);
      for (const m of ['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel', 'notifications/tasks/status']) {
        expect(inRevs(m), m).to.deep.equal(['2025-11-25']);
      }
      expect(inRevs('tools/call')).to.deep.equal([...SUPPORTED_REVISIONS]);
      expect(inRevs('completion/complete')).to.deep.equal([...SUPPORTED_REVISIONS]);
      expect(inRevs('nope')).to.deep.equal([]);
    });

    it('agrees with the revision table on elicitation and tasks', () => {
      for (const r of SUPPORTED_REVISIONS) {
        expect(isMethodInRevision('elicitation/create', r), r).to.equal(allows(r, 'elicitationForm'));
        expect(isMethodInRevision('notifications/elicitation/complete', r), r).to.equal(allows(r, 'elicitationUrl'));
        expect(isMethodInRevision('tasks/get', r), r).to.equal(allows(r, 'tasks'));
      }
    });
  });

  describe('hasCapability', () => {
    const caps = {
      logging: {},
      resources: { subscribe: true, listChanged: false },
      tools: {},
      prompts: { listChanged: true },
      experimental: { foo: {} },
      odd: null,
      zero: 0,
    };

    it('finds declared capabilities, including empty objects', () => {
      expect(hasCapability(caps, ['logging'])).to.equal(true);
      expect(hasCapability(caps, ['tools'])).to.equal(true);
      expect(hasCapability(caps, ['resources', 'subscribe'])).to.equal(true);
      expect(hasCapability(caps, ['prompts', 'listChanged'])).to.equal(true);
      expect(hasCapability(caps, ['experimental', 'foo'])).to.equal(true);
    });

    it('treats absent, false and null as undeclared', () => {
      expect(hasCapability(caps, ['completions'])).to.equal(false);
      expect(hasCapability(caps, ['resources', 'listChanged'])).to.equal(false);
      expect(hasCapability(caps, ['tools', 'listChanged'])).to.equal(false);
      expect(hasCapability(caps, ['odd'])).to.equal(false);
      expect(hasCapability(caps, ['odd', 'deeper'])).to.equal(false);
      expect(hasCapability(caps, ['experimental', 'bar'])).to.equal(false);
    });

    it('does not descend into non-objects or inherited properties', () => {
      expect(hasCapability(caps, ['resources', 'subscribe', 'more'])).to.equal(false);
      expect(hasCapability(caps, ['zero', 'toFixed'])).to.equal(false);
      expect(hasCapability(caps, ['toString'])).to.equal(false);
      expect(hasCapability(caps, ['tools', 'constructor'])).to.equal(false);
    });

    it('handles missing capabilities objects and the empty path', () => {
      expect(hasCapability(undefined, ['tools'])).to.equal(false);
      expect(hasCapability(undefined, [])).to.equal(false);
      expect(hasCapability({}, [])).to.equal(true);
      expect(hasCapability({}, ['tools'])).to.equal(false);
    });
  });

  describe('capabilitiesPermit', () => {
    const client: ClientCapabilities = { roots: { listChanged: true }, sampling: {} };
    const server: ServerCapabilities = { tools: {}, logging: {}, resources: { listChanged: true } };
    const both = { client, server };

    it('checks requests against the receiver', () => {
      expect(capabilitiesPermit('tools/call', 'client', both)).to.equal(true);
      expect(capabilitiesPermit('prompts/list', 'client', both)).to.equal(false);
      expect(capabilitiesPermit('resources/subscribe', 'client', both)).to.equal(false);
      expect(capabilitiesPermit('sampling/createMessage', 'server', both)).to.equal(true);
      expect(capabilitiesPermit('elicitation/create', 'server', both)).to.equal(false);
      expect(capabilitiesPermit('roots/list', 'server', both)).to.equal(true);
    });

    it('checks list_changed and log notifications against the sender', () => {
      expect(capabilitiesPermit('notifications/roots/list_changed', 'client', both)).to.equal(true);
      expect(capabilitiesPermit('notifications/resources/list_changed', 'server', both)).to.equal(true);
      expect(capabilitiesPermit('notifications/tools/list_changed', 'server', both)).to.equal(false);
      expect(capabilitiesPermit('notifications/message', 'server', both)).to.equal(true);
      expect(capabilitiesPermit('notifications/message', 'server', { client, server: {} })).to.equal(false);
    });

    it('permits methods without a requirement, and completion in 2024-11-05', () => {
      expect(capabilitiesPermit('ping', 'server', {})).to.equal(true);
      expect(capabilitiesPermit('notifications/progress', 'client', {})).to.equal(true);
      expect(capabilitiesPermit('completion/complete', 'client', both)).to.equal(false);
      expect(capabilitiesPermit('completion/complete', 'client', both, '2024-11-05')).to.equal(true);
    });
  });

  describe('supportsElicitationMode', () => {
    it('reads an empty elicitation capability as form only', () => {
      const caps = { elicitation: {} };
      expect(supportsElicitationMode(caps, 'form')).to.equal(true);
      expect(supportsElicitationMode(caps, 'url')).to.equal(false);
    });

    it('honours explicit form and url sub-capabilities', () => {
      expect(supportsElicitationMode({ elicitation: { url: {} } }, 'form')).to.equal(false);
      expect(supportsElicitationMode({ elicitation: { url: {} } }, 'url')).to.equal(true);
      expect(supportsElicitationMode({ elicitation: { form: {}, url: {} } }, 'form')).to.equal(true);
      expect(supportsElicitationMode({ elicitation: { form: {}, url: {} } }, 'url')).to.equal(true);
    });

    it('says no without the capability or in revisions without the mode', () => {
      expect(supportsElicitationMode({}, 'form')).to.equal(false);
      expect(supportsElicitationMode(undefined, 'form')).to.equal(false);
      const full = { elicitation: { form: {}, url: {} } };
      expect(supportsElicitationMode(full, 'url', '2025-06-18')).to.equal(false);
      expect(supportsElicitationMode(full, 'form', '2025-03-26')).to.equal(false);
      expect(supportsElicitationMode({ elicitation: {} }, 'form', '2025-06-18')).to.equal(true);
      // No sub-capabilities in 2025-06-18: a stray `url` key does not take form mode away.
      expect(supportsElicitationMode({ elicitation: { url: {} } }, 'form', '2025-06-18')).to.equal(true);
      expect(supportsElicitationMode(full, 'url', '2025-11-25')).to.equal(true);
    });
  });

  describe('2026-07-28', () => {
    it('removes the handshake, ping, setLevel, subscribe, core tasks and server-to-client requests', () => {
      for (const m of ['initialize', 'notifications/initialized', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe', 'notifications/roots/list_changed', 'notifications/elicitation/complete', 'tasks/get', 'roots/list']) {
        expect(isMethodInRevision(m, '2026-07-28'), m).to.equal(false);
        expect(isMethodInRevision(m, '2025-11-25'), m).to.equal(true);
      }
      for (const m of ['tools/call', 'tools/list', 'prompts/get', 'resources/read', 'completion/complete']) {
        expect(isMethodInRevision(m, '2026-07-28'), m).to.equal(true);
        expect(MODERN_CLIENT_REQUESTS.has(m), m).to.equal(true);
      }
      expect(MODERN_CLIENT_REQUESTS.has('server/discover')).to.equal(true);
      expect(MODERN_CLIENT_REQUESTS.has('subscriptions/listen')).to.equal(true);
      expect(MODERN_CLIENT_REQUESTS.has('ping')).to.equal(false);
    });
  });
});
