// The demo server with --auth (a real child process): the embedded authorization server in front
// of it, our client signing in through chromium, the notebook's tools then callable; nothing
// secret in what the process prints.
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { InMemoryOAuthClientProvider } from '../../../lib/auth/provider.js';
import { Client } from '../../../lib/client.js';
import { createStreamableHttpClientTransport } from '../../../streams/streamable-http-client.js';
import { freePort } from '../../../scripts/real-parts/free-port.js';
import { startAuthDemo } from './auth-demo.js';
import { browserAuthorize, launchChromium, USER } from './helpers.js';

describe('the demo server with --auth (real process, chromium)', function () {
  this.timeout(60_000);
  let browser: Browser;
  let child: ChildProcess;
  let output: () => string;
  let port: number;
  let authPort: number;

  before(async () => {
    browser = await launchChromium();
    const demo = await startAuthDemo();
    ({ child, port, authPort } = demo);
    output = demo.output;
  });
  after(async () => {
    child?.kill('SIGTERM');
    await browser?.close();
  });

  it('refuses a request without a token, pointing at its metadata, which names the embedded authorization server', async () => {
    const mcp = `http://127.0.0.1:${port}/mcp`;
    const res = await fetch(mcp, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    expect(res.status).to.equal(401);
    expect(res.headers.get('www-authenticate')).to.include(`resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp"`);
    const prm = (await (await fetch(`http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`)).json()) as { authorization_servers: string[]; resource: string };
    expect(prm).to.deep.include({ resource: mcp, authorization_servers: [`http://127.0.0.1:${authPort}`] });
    expect(output()).to.include(`protected by the authorization server at http://127.0.0.1:${authPort}`);
  });

  it('our client signs in through chromium and calls the notebook\'s tools; the password and tokens are never printed', async () => {
    const redirect = `http://127.0.0.1:${await freePort()}/callback`;
    const provider = new InMemoryOAuthClientProvider({ redirectUrl: redirect, clientMetadata: { client_name: 'demo client' }, authorize: browserAuthorize(browser, redirect) });
    const client = new Client({ info: { name: 'demo-client', version: '1.0.0' } });
    await client.connect(createStreamableHttpClientTransport(`http://127.0.0.1:${port}/mcp`, { auth: provider }));
    const result = await client.callTool('convert_units', { value: 1, from: 'kilometre', to: 'metre' });
    expect(JSON.stringify(result.content)).to.include('1000');
    await client.close();
    const tokens = provider.tokens()!;
    expect(tokens.token_type).to.equal('DPoP');
    expect(output()).to.include('[auth] grant.success');
    for (const secret of [USER.password, tokens.access_token, tokens.refresh_token!]) expect(output()).to.not.include(secret);
  });
});
