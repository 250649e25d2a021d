import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '../../lib/entries/client.js';
import { McpError } from '../../lib/errors.js';
import type { Root } from '../../lib/protocol/schema/index.js';
import { Server, type ServerSession } from '../../lib/server.js';
import { OutsideRootsError, rootContaining, trackRoots } from '../../lib/server-features/roots-cache.js';
import { createMemoryPair } from '../../streams/memory.js';
import { CLIENT_INFO, SERVER_INFO, settle } from '../helpers/raw-peer.js';

const PROJECT: Root = { uri: 'file:///home/user/project', name: 'Project' };
const DOCS: Root = { uri: 'file:///home/user/docs' };

async function connect(server: Server, setup: (c: Client) => void) {
  const [a, b] = createMemoryPair();
  const session = (await server.connect(a)) as ServerSession;
  let lists = 0;
  session.frames$.subscribe((f) => {
    if (f.direction === 'out' && (f.frame as { method?: string }).method === 'roots/list') lists++;
  });
  const client = new Client({ era: 'legacy', info: CLIENT_INFO });
  setup(client);
  await client.connect(b);
  await session.whenOperating();
  return { session, client, lists: () => lists };
}

describe('server features: roots tracked per session', () => {
  it('[ROOTS-012] [ROOTS-011] [ROOTS-019] paths are checked against the roots; .. cannot climb out; sibling prefixes do not count', () => {
    const roots = [PROJECT];
    expect(rootContaining(roots, '/home/user/project')).to.equal(PROJECT);
    expect(rootContaining(roots, '/home/user/project/src/a.ts')).to.equal(PROJECT);
    expect(rootContaining(roots, 'file:///home/user/project/src/a.ts')).to.equal(PROJECT);
    expect(rootContaining(roots, '/home/user/project/../secrets')).to.equal(undefined);
    expect(rootContaining(roots, 'file:///home/user/project/%2e%2e/secrets')).to.equal(undefined);
    expect(rootContaining(roots, '/home/user/project-evil/x')).to.equal(undefined);
    expect(rootContaining(roots, 'src/a.ts'), 'a relative path is under no root').to.equal(undefined);
    expect(rootContaining(roots, '/home/user/project/\0x')).to.equal(undefined);
  });

  it('[ROOTS-020] [ROOTS-011] caches each session\'s roots, lists again after roots/list_changed, and checks paths against them', async () => {
    const server = new Server({ info: SERVER_INFO, capabilities: {} });
    const roots = trackRoots(server);
    const { session, client, lists } = await connect(server, (c) => c.setRoots([PROJECT]));
    expect(await roots.get(session)).to.deep.equal({ roots: [PROJECT], available: true });
    expect(await roots.isWithinRoots(session, '/home/user/project/a.txt')).to.equal(true);
    expect(await roots.check(session, 'file:///home/user/project/b.txt')).to.equal('/home/user/project/b.txt');
    expect(lists(), 'one roots/list for all of those').to.equal(1);

    client.setRoots([DOCS]);
    await settle();
    await settle();
    expect(await roots.isWithinRoots(session, '/home/user/project/a.txt'), 'the old root is gone').to.equal(false);
    expect(await roots.isWithinRoots(session, '/home/user/docs/a.txt')).to.equal(true);
    expect(lists()).to.equal(2);
    const e = await roots.check(session, '/home/user/project/a.txt').catch((x: unknown) => x);
    expect(e).to.be.instanceOf(OutsideRootsError);
    expect((e as McpError).code).to.equal(-32602);
  });

  it('[ROOTS-012] [ROOTS-011] a symbolic link inside a root that leads out of it is outside; links that stay inside, and a root reached through a link, are fine', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'roots-links-'));
    try {
      const root = join(dir, 'project');
      mkdirSync(join(root, 'src'), { recursive: true });
      mkdirSync(join(dir, 'outside'));
      writeFileSync(join(root, 'src', 'a.ts'), 'a');
      writeFileSync(join(dir, 'outside', 'secret.txt'), 'secret');
      symlinkSync(join(dir, 'outside', 'secret.txt'), join(root, 'secret-link'));
      symlinkSync(join(dir, 'outside'), join(root, 'outside-dir'));
      symlinkSync(join(root, 'src', 'a.ts'), join(root, 'a-link'));
      symlinkSync(join(root, 'loop'), join(root, 'loop'));
      symlinkSync(root, join(dir, 'project-link'));

      const server = new Server({ info: SERVER_INFO, capabilities: {} });
      const roots = trackRoots(server);
      const { session } = await connect(server, (c) => c.setRoots([{ uri: pathToFileURL(root).href }]));
      const outside = async (path: string) => {
        const e = await roots.check(session, path).catch((x: unknown) => x);
        expect(e, path).to.be.instanceOf(OutsideRootsError);
        expect(await roots.isWithinRoots(session, path), path).to.equal(false);
      };
      await outside(join(root, 'secret-link'));
      await outside(pathToFileURL(join(root, 'secret-link')).href);
      await outside(join(root, 'outside-dir', 'secret.txt'));
      await outside(join(root, 'outside-dir', 'not-yet-written.txt'));
      await outside(join(root, 'loop'));
      await outside(`${pathToFileURL(root).href}/%2e%2e/outside/secret.txt`);
      await outside(join(root, '..', 'outside', 'secret.txt'));

      expect(await roots.check(session, join(root, 'src', 'a.ts'))).to.equal(join(root, 'src', 'a.ts'));
      expect(await roots.check(session, join(root, 'a-link'))).to.equal(join(root, 'a-link'));
      expect(await roots.check(session, join(root, 'src', 'new', 'file.ts')), 'a file not written yet').to.equal(join(root, 'src', 'new', 'file.ts'));

      // The client's root named through a link: the same files are inside, the escapes still outside.
      const linked = trackRoots(server);
      const via = await connect(server, (c) => c.setRoots([{ uri: pathToFileURL(join(dir, 'project-link')).href }]));
      expect(await linked.isWithinRoots(via.session, join(dir, 'project-link', 'src', 'a.ts'))).to.equal(true);
      expect(await linked.isWithinRoots(via.session, join(dir, 'project-link', 'secret-link'))).to.equal(false);
      roots.close();
      linked.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('[ROOTS-010] roots that become unavailable (no capability, a failing roots/list) mean every path is outside', async () => {
    const server = new Server({ info: SERVER_INFO, capabilities: {} });
    const roots = trackRoots(server);
    const none = await connect(server, () => {});
    expect(await roots.get(none.session)).to.deep.include({ roots: [], available: false });
    expect(await roots.isWithinRoots(none.session, '/anything')).to.equal(false);
    expect(none.lists(), 'no roots/list to a client without roots').to.equal(0);

    let fail = false;
    const flaky = await connect(server, (c) => {
      c.setRoots([PROJECT], {
        verify: () => {
          if (fail) throw new Error('disk gone');
          return true;
        },
      });
    });
    expect(await roots.isWithinRoots(flaky.session, '/home/user/project/x')).to.equal(true);
    fail = true;
    roots.invalidate(flaky.session);
    const known = await roots.get(flaky.session);
    expect(known).to.deep.include({ roots: [], available: false });
    expect(known.reason).to.match(/roots\/list failed/);
    const e = await roots.check(flaky.session, '/home/user/project/x').catch((x: unknown) => x);
    expect(e).to.be.instanceOf(OutsideRootsError);
    fail = false;
    expect(await roots.isWithinRoots(flaky.session, '/home/user/project/x'), 'a failure is not cached').to.equal(true);
    roots.close();
  });
});
