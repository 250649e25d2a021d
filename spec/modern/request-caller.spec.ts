// What a handler knows of its caller is one interface in both eras (`RequestCaller`): a legacy
// session's facts come from `initialize`, a 2026-07-28 request's from its envelope. Features that
// read only those facts run on any caller, with no session behind it.
import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createMemoryPair } from '../../streams/memory.js';
import type { RequestCaller } from '../../lib/session/session.js';
import { revisionOf } from '../../lib/server-features/feature-context.js';
import { UNIDENTIFIED_OWNER, isIdentified, taskOwner } from '../../lib/tasks/identity.js';
import { CLIENT_INFO, SERVER_INFO } from '../helpers/raw-peer.js';

type Seen = Pick<RequestCaller, 'protocolVersion' | 'peerCapabilities' | 'peerInfo' | 'stateless'> & { scoped: boolean };

async function callerSeenIn(era: 'legacy' | 'modern'): Promise<Seen> {
  let seen: Seen | undefined;
  const mcp = createMcpServer({ info: SERVER_INFO });
  mcp.registerTool('who', { inputSchema: { type: 'object' } }, (_args, ctx) => {
    const caller: RequestCaller = ctx.session;
    seen = { protocolVersion: caller.protocolVersion, peerCapabilities: caller.peerCapabilities, peerInfo: caller.peerInfo, stateless: caller.stateless, scoped: caller.requestScope !== undefined };
    return 'ok';
  });
  const [a, b] = createMemoryPair();
  await mcp.connect(a);
  const client = new Client({ info: CLIENT_INFO, era });
  client.setRoots([{ uri: 'file:///work', name: 'work' }]);
  await client.connect(b);
  await client.callTool('who', {});
  await client.close();
  return seen!;
}

describe('modern/request-caller: the caller a handler sees, in both eras', () => {
  it('a 2026-07-28 request: the revision, capabilities and client info of its envelope, and its request scope', async () => {
    const seen = await callerSeenIn('modern');
    expect(seen.protocolVersion).to.equal('2026-07-28');
    expect(seen.peerCapabilities).to.have.property('roots');
    expect(seen.peerInfo).to.deep.include({ name: CLIENT_INFO.name });
    expect(seen.scoped).to.equal(true);
  });

  it('a 2026-07-28 request is stateless: an unauthenticated caller is the one unidentified owner in every request, not a new owner each time', async () => {
    const owners: string[] = [];
    const stateless: boolean[] = [];
    const mcp = createMcpServer({ info: SERVER_INFO });
    mcp.registerTool('owner', { inputSchema: { type: 'object' } }, (_args, ctx) => {
      stateless.push(ctx.session.stateless);
      owners.push(taskOwner({ session: ctx.session, authInfo: ctx.authInfo }));
      return 'ok';
    });
    const [a, b] = createMemoryPair();
    await mcp.connect(a);
    const client = new Client({ info: CLIENT_INFO, era: 'modern' });
    await client.connect(b);
    await client.callTool('owner', {});
    await client.callTool('owner', {});
    await client.close();
    expect(stateless).to.deep.equal([true, true]);
    // Before: each request was a caller of its own, so what one request made its owner's, the next could never find.
    expect(owners).to.deep.equal([UNIDENTIFIED_OWNER, UNIDENTIFIED_OWNER]);
  });

  it('a legacy session: what initialize negotiated, and no request scope', async () => {
    const seen = await callerSeenIn('legacy');
    expect(seen.protocolVersion).to.equal('2025-11-25');
    expect(seen.peerCapabilities).to.have.property('roots');
    expect(seen.peerInfo).to.deep.include({ name: CLIENT_INFO.name });
    expect(seen.scoped).to.equal(false);
  });

  it('features that read only the caller run on a plain caller with no session', () => {
    const caller: RequestCaller = {
      authInfo: undefined,
      protocolVersion: '2026-07-28',
      peerCapabilities: {},
      peerInfo: { name: 'c', version: '1' },
      localCapabilities: { tools: {} },
      stateless: true,
      requestScope: undefined,
    };
    expect(revisionOf(caller)).to.equal('2026-07-28');
    expect(revisionOf({ ...caller, protocolVersion: undefined })).to.equal('2025-11-25'); // the latest session revision, before negotiation
    expect(taskOwner({ session: caller, authInfo: undefined })).to.equal(UNIDENTIFIED_OWNER);
    expect(isIdentified({ session: caller, authInfo: undefined })).to.equal(false);
    const stateful = { ...caller, stateless: false };
    const owner = taskOwner({ session: stateful, authInfo: undefined });
    expect(owner).to.match(/^session:/);
    expect(taskOwner({ session: stateful, authInfo: undefined })).to.equal(owner);
  });
});
