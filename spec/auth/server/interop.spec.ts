// A protected server end to end: the official SDK's client with a static token, and a plain
// fetch client walking 401 → resource_metadata → PRM → token → MCP.
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { discoverOAuthProtectedResourceMetadata, extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import { ISSUER, startProtected, tokenFor, type Protected } from './helpers.js';

const textOf = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0].text);

describe('a protected server end to end', () => {
  let p: Protected;
  const clients: Client[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => {});
    await p?.close();
  });

  function sdkClient(token?: string): { client: Client; transport: StreamableHTTPClientTransport } {
    const client = new Client({ name: 'sdk-client', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(p.url), token === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
    clients.push(client);
    return { client, transport };
  }

  it('[AUTH-028] [AUTH-035] serves the official SDK client with a static token, with per-method scopes', async () => {
    p = await startProtected({ auth: { requiredScopes: ['mcp:read'], scopesForMethod: { 'tools/call': ['mcp:write'] } } });
    p.tokens.set('sdk-writer', tokenFor(p.url, 'carol', ['mcp:read', 'mcp:write']));
    p.tokens.set('sdk-reader', tokenFor(p.url, 'dave', ['mcp:read']));
    const { client, transport } = sdkClient('sdk-writer');
    await client.connect(transport);
    expect((await client.listTools()).tools.map((t) => t.name)).to.deep.equal(['whoami', 'write']);
    const who = textOf(await client.callTool({ name: 'whoami', arguments: {} }));
    expect(who.authInfo).to.include({ subject: 'carol', clientId: 'client-of-carol', resource: p.url });
    const reader = sdkClient('sdk-reader');
    await reader.client.connect(reader.transport);
    expect((await reader.client.listTools()).tools).to.have.length(2);
    let refused: unknown;
    await reader.client.callTool({ name: 'write', arguments: {} }).catch((e: unknown) => (refused = e));
    expect(String(refused)).to.match(/403|insufficient_scope/);
    expect(p.calls).to.deep.equal(['whoami']);
  });

  it('[AUTH-012] refuses the SDK client without a token, and the SDK discovers our metadata from the 401', async () => {
    p = await startProtected({ scopesSupported: ['mcp:read'] });
    const { client, transport } = sdkClient();
    let failure: unknown;
    await client.connect(transport).catch((e: unknown) => (failure = e));
    expect(String(failure)).to.match(/401|Unauthorized/i);
    const res = await fetch(p.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    const { resourceMetadataUrl } = extractWWWAuthenticateParams(res);
    expect(resourceMetadataUrl?.href).to.equal(`${p.origin}/.well-known/oauth-protected-resource/mcp`);
    const prm = await discoverOAuthProtectedResourceMetadata(p.url, { resourceMetadataUrl });
    expect(prm.resource).to.equal(p.url);
    expect(prm.authorization_servers).to.deep.equal([ISSUER]);
  });

  it('[AUTH-012] walks the flow with plain fetch: 401, metadata, then a token issued for the resource', async () => {
    p = await startProtected();
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fetch', version: '1' } } });
    const first = await fetch(p.url, { method: 'POST', headers, body: init });
    expect(first.status).to.equal(401);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(first.headers.get('www-authenticate') ?? '')?.[1];
    const prm = (await (await fetch(metadataUrl!)).json()) as { resource: string; authorization_servers: string[] };
    // The "authorization server" issues a token for prm.resource.
    p.tokens.set('issued-for-resource', tokenFor(prm.resource, 'erin', []));
    const second = await fetch(p.url, { method: 'POST', headers: { ...headers, authorization: 'Bearer issued-for-resource' }, body: init });
    expect(second.status).to.equal(200);
    expect(((await second.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).to.equal('protected');
    expect(second.headers.get('mcp-session-id')).to.be.a('string');
  });
});
