import { expect } from 'chai';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { BehaviorSubject } from 'rxjs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ClientWarning } from '../../lib/entries/client.js';
import { McpError } from '../../lib/errors.js';
import { pair, rejection } from './helpers.js';

describe('client features: roots checked before they are exposed', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-roots-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('[ROOTS-015] with verify, roots that do not exist (any more) are left out of roots/list and reported', async () => {
    const present = { uri: pathToFileURL(dir).href, name: 'here' };
    const gone = { uri: pathToFileURL(join(dir, 'no-such-dir')).href, name: 'gone' };
    const { client, session } = await pair({ setup: (c) => c.setRoots([present, gone], { verify: true }) });
    const warnings: ClientWarning[] = [];
    client.warnings$.subscribe((w) => warnings.push(w));
    expect(await session.request('roots/list')).to.deep.equal({ roots: [present] });
    expect(warnings.map((w) => w.kind)).to.deep.equal(['inaccessible-root']);
    expect(warnings[0]!.message).to.contain('no-such-dir');
    // Without verify, the list is given as set.
    client.setRoots([present, gone]);
    expect(await session.request('roots/list')).to.deep.equal({ roots: [present, gone] });
  });

  it('[ROOTS-009] checks accessibility again at every roots/list: a root that goes away is left out, and comes back with its directory', async () => {
    const sub = join(dir, 'project');
    await mkdir(sub);
    const root = { uri: pathToFileURL(sub).href, name: 'project' };
    const { session } = await pair({ setup: (c) => c.setRoots([root], { verify: true }) });
    expect(await session.request('roots/list')).to.deep.equal({ roots: [root] });
    await rm(sub, { recursive: true });
    expect(await session.request('roots/list')).to.deep.equal({ roots: [] });
    await mkdir(sub);
    expect(await session.request('roots/list')).to.deep.equal({ roots: [root] });
  });

  it('[ROOTS-006] [ROOTS-008] a verifier is the host\'s access policy: a root it denies is never exposed, from a list or from an observable of roots', async () => {
    const allowed = { uri: 'file:///work/public', name: 'public' };
    const denied = { uri: 'file:///work/secrets', name: 'secrets' };
    const policy = (r: { uri: string }) => !r.uri.startsWith('file:///work/secrets');
    const roots$ = new BehaviorSubject([allowed, denied]);
    const { client, session } = await pair({ setup: (c) => c.setRoots([allowed, denied], { verify: policy }) });
    expect(await session.request('roots/list')).to.deep.equal({ roots: [allowed] });
    client.setRoots(roots$, { verify: policy });
    expect(await session.request('roots/list')).to.deep.equal({ roots: [allowed] });
    roots$.next([denied]);
    expect(await session.request('roots/list')).to.deep.equal({ roots: [] });
  });

  it('[ROOTS-005] a roots handler that fails internally answers -32603', async () => {
    const { session } = await pair({
      setup: (c) =>
        c.setRoots([{ uri: 'file:///srv/data' }], {
          verify: () => {
            throw new Error('permission database unavailable');
          },
        }),
    });
    const e = await rejection(session.request('roots/list'));
    expect(e).to.be.instanceOf(McpError);
    expect(e.code).to.equal(-32603);
  });
});
