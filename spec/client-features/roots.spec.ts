import { expect } from 'chai';
import { BehaviorSubject } from 'rxjs';
import { Client } from '../../lib/entries/client.js';
import { CapabilityError, PhaseError } from '../../lib/errors.js';
import type { Root } from '../../lib/protocol/schema/index.js';
import { CLIENT_INFO } from '../helpers/raw-peer.js';
import { flush, pair, rejection } from './helpers.js';

const PROJECT: Root = { uri: 'file:///home/user/project', name: 'Project' };
const OTHER: Root = { uri: 'file:///home/user/other' };

describe('client features: roots', () => {
  it('[ROOTS-001] setRoots declares roots with listChanged, and roots/list answers the roots', async () => {
    const { client, session } = await pair({ setup: (c) => c.setRoots([PROJECT]) });
    expect(session.peerCapabilities).to.deep.include({ roots: { listChanged: true } });
    expect(client.localCapabilities.roots).to.deep.equal({ listChanged: true });
    expect(await session.request('roots/list')).to.deep.equal({ roots: [PROJECT] });
  });

  it('[ROOTS-002] [ROOTS-016] a change after initialization sends notifications/roots/list_changed; the same list again sends nothing', async () => {
    const { client, session } = await pair({ setup: (c) => c.setRoots([PROJECT]) });
    let changes = 0;
    session.onNotification('notifications/roots/list_changed', () => void changes++);
    client.setRoots([PROJECT]);
    await flush();
    expect(changes).to.equal(0);
    client.setRoots([PROJECT, OTHER]);
    await flush();
    expect(changes).to.equal(1);
    expect(await session.request('roots/list')).to.deep.equal({ roots: [PROJECT, OTHER] });
  });

  it('[ROOTS-002] roots from an observable: each change after initialization is announced', async () => {
    const roots$ = new BehaviorSubject<Root[]>([PROJECT]);
    const { client, session } = await pair({ setup: (c) => c.setRoots(roots$) });
    let changes = 0;
    session.onNotification('notifications/roots/list_changed', () => void changes++);
    expect(await session.request('roots/list')).to.deep.equal({ roots: [PROJECT] });
    roots$.next([OTHER]);
    await flush();
    expect(changes).to.equal(1);
    expect(client.roots).to.deep.equal([OTHER]);
    expect(await session.request('roots/list')).to.deep.equal({ roots: [OTHER] });
  });

  it('no notification for changes before initialization (the first roots/list sees them)', async () => {
    const roots$ = new BehaviorSubject<Root[]>([]);
    const { clientOut, session } = await pair({
      setup: (c) => {
        c.setRoots(roots$);
        roots$.next([PROJECT]);
      },
    });
    expect(clientOut.some((f) => f.method === 'notifications/roots/list_changed')).to.equal(false);
    expect(await session.request('roots/list')).to.deep.equal({ roots: [PROJECT] });
  });

  it('[ROOTS-003] [ROOTS-007] only file:// URIs without dot segments are exposed', () => {
    const client = new Client({ era: 'legacy', info: CLIENT_INFO });
    expect(() => client.setRoots([{ uri: 'https://example.com/repo' }])).to.throw(TypeError, /file:\/\//);
    expect(() => client.setRoots([{ uri: 'file:///home/user/../../etc' }])).to.throw(TypeError, /path traversal/);
    expect(() => client.setRoots([{ uri: 'file:///home/user/%2e%2e/secret' }])).to.throw(TypeError, /path traversal/);
    expect(() => client.setRoots([PROJECT, PROJECT])).to.throw(TypeError, /twice/);
    // Nothing was declared by the failed calls.
    expect(client.localCapabilities).to.not.have.property('roots');
  });

  it('[ROOTS-007] an invalid list from an observable is skipped and reported; the last good roots stay', async () => {
    const roots$ = new BehaviorSubject<Root[]>([PROJECT]);
    const { client, session } = await pair({ setup: (c) => c.setRoots(roots$) });
    const warnings: string[] = [];
    client.warnings$.subscribe((w) => warnings.push(w.kind));
    roots$.next([{ uri: 'file:///a/../b' }]);
    await flush();
    expect(warnings).to.deep.equal(['invalid-roots']);
    expect(await session.request('roots/list')).to.deep.equal({ roots: [PROJECT] });
  });

  it('[ROOTS-004] a client without roots answers roots/list with -32601', async () => {
    const { session } = await pair({ serverUnchecked: true });
    const err = await rejection(session.request('roots/list', undefined));
    expect(err).to.not.be.instanceOf(CapabilityError);
    expect(err.code).to.equal(-32601);
    expect(err.message).to.contain('roots');
  });

  it('setRoots for the first time after connecting is refused (capabilities are fixed at initialization)', async () => {
    const { client } = await pair();
    expect(() => client.setRoots([PROJECT])).to.throw(PhaseError);
  });
});
