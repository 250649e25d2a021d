// subscriptions/listen behind the same API (2026-07-28): subscribe(uri) and tools$ open one
// listen request with what they need, a change replaces it (the old one cancelled), and a stream
// the server ends is reopened; notifications reach the observables as before.
import { expect } from 'chai';
import { firstValueFrom, filter, take } from 'rxjs';
import { Client, type ClientWarning } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { createMemoryPair } from '../../streams/memory.js';

type Msg = { id?: number; method?: string; params?: Record<string, any> };
const V = '2026-07-28';
const tick = () => new Promise((r) => setImmediate(r));

function server() {
  const [a, b] = createMemoryPair();
  const seen: Msg[] = [];
  const send = (frame: unknown) => void b.send(frame as never);
  b.inbound$.subscribe((raw) => {
    const m = raw as Msg;
    seen.push(m);
    const reply = (result: unknown) => send({ jsonrpc: '2.0', id: m.id!, result });
    if (m.method === 'server/discover') reply({ resultType: 'complete', supportedVersions: [V], capabilities: { tools: { listChanged: true }, resources: { subscribe: true } }, ttlMs: 0, cacheScope: 'public' });
    if (m.method === 'tools/list') reply({ resultType: 'complete', tools: [{ name: `t${seen.length}`, inputSchema: { type: 'object' } }], ttlMs: 0, cacheScope: 'public' });
    if (m.method === 'subscriptions/listen') {
      send({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: m.params!.notifications, _meta: { 'io.modelcontextprotocol/subscriptionId': m.id } } });
    }
  });
  const listens = () => seen.filter((m) => m.method === 'subscriptions/listen');
  return { transport: a, seen, send, listens };
}

describe('client: subscriptions/listen (2026-07-28)', () => {
  it('[SUB-004] [STDIO-019] correlates notifications by subscription id on the one channel: those of a replaced listen, or of none it opened, are dropped', async () => {
    const s = server();
    const client = new Client({ info: { name: 'c', version: '1' }, era: 'auto', listChangedDebounceMs: 0 });
    await client.connect(s.transport);
    const updates: string[] = [];
    const subs = [client.subscribe('file:///a').subscribe((u) => updates.push(u.uri))];
    await tick();
    const first = s.listens()[0]!;
    const updated = (uri: string, subscriptionId: unknown) => s.send({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri, _meta: { 'io.modelcontextprotocol/subscriptionId': subscriptionId } } });
    updated('file:///a', first.id);
    updated('file:///a', 'someone-else');
    await tick();
    expect(updates).to.deep.equal(['file:///a']);
    // Widened: a new listen replaces the first; a late update tagged with the first is not taken.
    subs.push(client.subscribe('file:///b').subscribe((u) => updates.push(u.uri)));
    await tick();
    const second = s.listens()[1]!;
    expect(second.id).to.not.equal(first.id);
    updated('file:///b', first.id);
    updated('file:///b', second.id);
    await tick();
    expect(updates).to.deep.equal(['file:///a', 'file:///b']);
    for (const sub of subs) sub.unsubscribe();
    await tick();
    await client.close();
  });

  it('[SUB-003] checks the acknowledged filter: what the server leaves out is a warning naming it, the listen is kept and not reopened', async () => {
    const clock = new ManualClock(0);
    const [a, b] = createMemoryPair();
    const seen: Msg[] = [];
    b.inbound$.subscribe((raw) => {
      const m = raw as Msg;
      seen.push(m);
      if (m.method === 'server/discover') void b.send({ jsonrpc: '2.0', id: m.id!, result: { resultType: 'complete', supportedVersions: [V], capabilities: { tools: { listChanged: true }, resources: { subscribe: true } }, ttlMs: 0, cacheScope: 'public' } } as never);
      // Honours the list changes, not the resource subscription.
      if (m.method === 'subscriptions/listen') void b.send({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { toolsListChanged: true }, _meta: { 'io.modelcontextprotocol/subscriptionId': m.id } } } as never);
    });
    const client = new Client({ info: { name: 'c', version: '1' }, era: 'auto', clock, listChangedDebounceMs: 0 });
    const warnings: ClientWarning[] = [];
    client.warnings$.subscribe((w) => warnings.push(w));
    await client.connect(a);
    const subs = [client.subscribe('file:///a').subscribe(), client.tools$.subscribe()];
    for (let i = 0; i < 5; i++) await tick();
    const listens = () => seen.filter((m) => m.method === 'subscriptions/listen');
    expect(listens()).to.have.length(2);
    expect(listens()[1]!.params!.notifications).to.deep.equal({ toolsListChanged: true, resourceSubscriptions: ['file:///a'] });
    const narrowed = warnings.filter((w) => w.kind === 'listen-narrowed');
    expect(narrowed.at(-1)!.message).to.contain('file:///a').and.not.contain('toolsListChanged');
    clock.advance(60_000);
    for (let i = 0; i < 5; i++) await tick();
    expect(listens()).to.have.length(2);
    for (const sub of subs) sub.unsubscribe();
    await tick();
    await client.close();
  });

  it('[CANCEL-043] subscribe(uri) opens a listen with the URI; updates arrive; tools$ widens it (the old one cancelled); a listen the server ends is reopened', async () => {
    const clock = new ManualClock(0);
    const s = server();
    const client = new Client({ info: { name: 'c', version: '1' }, era: 'auto', clock, listChangedDebounceMs: 0 });
    await client.connect(s.transport);
    expect(s.listens()).to.have.length(0);

    const updates: string[] = [];
    const sub = client.subscribe('file:///watched').subscribe((u) => updates.push(u.uri));
    await tick();
    expect(s.listens()).to.have.length(1);
    const first = s.listens()[0]!;
    expect(first.params!.notifications).to.deep.equal({ resourceSubscriptions: ['file:///watched'] });
    expect(first.params!._meta['io.modelcontextprotocol/protocolVersion']).to.equal(V);
    s.send({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'file:///watched', _meta: { 'io.modelcontextprotocol/subscriptionId': first.id } } });
    await tick();
    expect(updates).to.deep.equal(['file:///watched']);

    const lists: string[][] = [];
    const toolsSub = client.tools$.subscribe((tools) => lists.push(tools.map((t) => t.name)));
    await tick();
    expect(s.listens()).to.have.length(2);
    const second = s.listens()[1]!;
    expect(second.params!.notifications).to.deep.equal({ toolsListChanged: true, resourceSubscriptions: ['file:///watched'] });
    expect(s.seen.some((m) => m.method === 'notifications/cancelled' && m.params!.requestId === first.id)).to.equal(true);

    // A list change on the stream re-lists.
    s.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': second.id } } });
    await tick();
    clock.advance(0);
    await tick();
    await firstValueFrom(client.tools$.pipe(filter((t) => t.length > 0), take(1)));
    expect(s.seen.filter((m) => m.method === 'tools/list').length).to.be.greaterThanOrEqual(1);

    // The server ends the listen gracefully: reopened a second later.
    s.send({ jsonrpc: '2.0', id: second.id, result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': second.id } } });
    await tick();
    expect(s.listens()).to.have.length(2);
    clock.advance(1000);
    await tick();
    expect(s.listens()).to.have.length(3);

    // Nothing wanted any more: the listen is cancelled, none reopened.
    sub.unsubscribe();
    toolsSub.unsubscribe();
    await tick();
    const third = s.listens()[2]!;
    expect(s.listens()[3]?.params?.notifications ?? { toolsListChanged: true }).to.deep.equal({ toolsListChanged: true });
    expect(s.seen.some((m) => m.method === 'notifications/cancelled' && m.params!.requestId === third.id)).to.equal(true);
    await client.close();
  });
});
