// URL-mode elicitations bound to the verified user (the transport's authInfo), over real HTTP.
import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { Client } from '../../lib/entries/client.js';
import { McpError } from '../../lib/errors.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import type { ServerSession } from '../../lib/server.js';
import {
  completeElicitation,
  completeElicitationFor,
  ElicitationIdentityError,
  urlElicitationRequired,
} from '../../lib/server-features/client-calls.js';
import type { AuthOutcome } from '../../streams/http-auth.js';
import { createMemoryPair } from '../../streams/memory.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { CLIENT_INFO, SERVER_INFO, settle } from '../helpers/raw-peer.js';

const TOKENS: Record<string, { sub: string }> = { 'alice-token': { sub: 'alice' }, 'bob-token': { sub: 'bob' } };
const authenticate = (req: IncomingMessage): AuthOutcome => {
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  const claims = token === undefined ? undefined : TOKENS[token];
  return claims ? { ok: true, authInfo: { token, ...claims } } : { ok: false, status: 401 };
};

/** What the completion route of the server would have verified for each user. */
const alice = { authInfo: { sub: 'alice', token: 'a-browser-session' } };
const bob = { authInfo: { sub: 'bob', token: 'bob-token' } };

describe('server features: URL elicitations bound to the user', function () {
  this.timeout(20_000);
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const x of open.splice(0).reverse()) await x.close();
  });

  async function connectAs(token: string) {
    const mcp = createMcpServer({ info: SERVER_INFO });
    let asked: { id: string; session: ServerSession } | undefined;
    mcp.registerTool('connect_account', { inputSchema: { type: 'object', properties: { user: { type: 'string' } } } }, async (_args, ctx) => {
      const call = ctx.elicit({ mode: 'url', message: 'Connect your account', url: 'https://mcp.example.com/connect' });
      asked = { id: call.elicitationId!, session: ctx.session as ServerSession };
      const answer = await call;
      return `user said ${answer.action}`;
    });
    const listening: Listening = await listen(createStreamableHttpHandler(mcp.server, { authenticate }), { port: 0, logger: false });
    open.push(listening);
    const client = new Client({ era: 'legacy', info: CLIENT_INFO });
    const completed: string[] = [];
    let heard: () => void = () => {};
    const nextCompletion = () => new Promise<void>((resolve) => (heard = resolve));
    client.onNotification('notifications/elicitation/complete', (p) => {
      completed.push(String(p?.elicitationId));
      heard();
    });
    client.onElicitation({ url: () => 'accept' });
    await client.connect(createStreamableHttpClientTransport(listening.url, { headers: { authorization: `Bearer ${token}` } }));
    open.push(client);
    return { client, completed, nextCompletion, asked: () => asked! };
  }

  it('[ELICIT-023] [ELICIT-024] [ELICIT-025] [ELICIT-034] [ELICIT-058] [ELICIT-059] [ELICIT-084] only the user who was asked can complete it; another user with the id finds nothing', async () => {
    const { client, completed, nextCompletion, asked } = await connectAs('alice-token');
    // The client claims to be bob: client-provided identification counts for nothing.
    const r = await client.callTool('connect_account', { user: 'bob' });
    expect(r.content).to.deep.equal([{ type: 'text', text: 'user said accept' }]);
    const { id, session } = asked();

    // Bob tampered with the URL to carry alice's elicitation id: looked up among bob's, not found.
    const e1 = (() => {
      try {
        completeElicitationFor(bob, id);
      } catch (e) {
        return e;
      }
    })();
    expect(e1).to.be.instanceOf(McpError);
    expect((e1 as McpError).code).to.equal(-32602);
    // Even given the session: another user, or nobody said, is refused.
    expect(() => completeElicitation(session, id, bob)).to.throw(ElicitationIdentityError, /issued to another user/);
    expect(() => completeElicitation(session, id)).to.throw(ElicitationIdentityError, /bound to an authenticated user/);
    await settle();
    expect(completed, 'nothing was sent').to.deep.equal([]);

    // Alice herself, verified by the server's completion route, completes it.
    const heard = nextCompletion();
    expect(completeElicitationFor(alice, id)).to.equal(true);
    await heard;
    expect(completed).to.deep.equal([id]);
    expect(() => completeElicitationFor(alice, id), 'settled: no longer pending').to.throw(McpError);
  });

  it('[ELICIT-026] [ELICIT-052] [ELICIT-057] the identity is the verified token\'s subject: the same user with another token completes it', async () => {
    const { client, completed, nextCompletion, asked } = await connectAs('alice-token');
    await client.callTool('connect_account', {});
    const { id, session } = asked();
    // Not the same token, the same `sub`.
    const heard = nextCompletion();
    expect(completeElicitation(session, id, { authInfo: { sub: 'alice', token: 'other' } })).to.equal(true);
    await heard;
    expect(completed).to.deep.equal([id]);
  });

  it('[ELICIT-034] -32042 elicitations of an authenticated request are bound the same way; unauthenticated ones stay session-bound', async () => {
    const mcp = createMcpServer({ info: SERVER_INFO });
    const sessions: ServerSession[] = [];
    mcp.registerTool('needs_auth', {}, (_a, ctx) => {
      sessions.push(ctx.session as ServerSession);
      throw urlElicitationRequired(ctx, [{ message: 'Authorize', url: 'https://mcp.example.com/authz', elicitationId: `e${sessions.length}` }]);
    });
    const run = async (authInfo: unknown) => {
      const [a, b] = createMemoryPair();
      if (authInfo !== undefined) (a as { authInfo?: unknown }).authInfo = authInfo;
      await mcp.connect(a);
      const client = new Client({ era: 'legacy', info: CLIENT_INFO });
      client.onElicitation({ url: () => 'cancel' });
      await client.connect(b);
      await client.callTool('needs_auth', {}).catch(() => undefined);
    };
    await run({ sub: 'alice' });
    expect(() => completeElicitation(sessions[0]!, 'e1', bob)).to.throw(ElicitationIdentityError);
    expect(completeElicitationFor(alice, 'e1')).to.equal(true);
    await run(undefined);
    expect(completeElicitation(sessions[1]!, 'e2'), 'no authenticated user: bound to the session only').to.equal(true);
  });
});
