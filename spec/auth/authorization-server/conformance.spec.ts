// Our authorization server (on oidc-provider) against the official conformance suite 0.2.0-alpha.12's
// authorization scenarios: its RFC 8414 metadata, and the authorization code grant, where the suite
// prints the authorization URL for a person: chromium (playwright-core) signs in and allows on our
// pages, the suite's callback gets the code and exchanges it.
import { expect } from 'chai';
import { freePort } from '../../../scripts/real-parts/free-port.js';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { createAuthorizationServer } from '../../../lib/auth/authorization-server/authorization-server.js';
import { memoryAccounts } from '../../../lib/auth/authorization-server/accounts.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CLI = 'node_modules/conformance-next/dist/index.js';


async function node22(): Promise<string> {
  return await new Promise((resolve, reject) => {
    const p = spawn('npx', ['-y', 'node@22', '-p', 'process.execPath'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`npx node@22 exited ${code}`))));
  });
}

describe('authorization server: the conformance suite\'s authorization scenarios', function () {
  this.timeout(180_000);
  let http: Server;
  let issuer: string;
  let callbackPort: number;
  let browser: Browser;
  let node: string;
  const resource = 'http://127.0.0.1:9/mcp';

  before(async function () {
    this.timeout(180_000);
    if (!existsSync(CHROMIUM)) throw new Error(`No chromium at ${CHROMIUM}`);
    node = await node22();
    const port = await freePort();
    callbackPort = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    const as = await createAuthorizationServer({
      issuer,
      resources: [{ uri: resource, scopes: ['mcp'] }],
      accounts: memoryAccounts({ alice: 'correct horse' }),
      clients: [{ client_id: 'conformance', token_endpoint_auth_method: 'none', redirect_uris: [`http://127.0.0.1:${callbackPort}/callback`], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }],
    });
    http = createServer((req, res) => as.handler(req, res));
    await new Promise<void>((r) => http.listen(port, '127.0.0.1', () => r()));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update'] });
  });
  after(async () => {
    await browser?.close();
    http?.close();
  });

  it('[AUTH-008] [AUTH-125] authorization-server-metadata-endpoint and authorization-code-grant: clean, a person signing in and allowing in chromium', async () => {
    const suite = spawn(node, [CLI, 'authorization', '--url', issuer, '--client-id', 'conformance', '--port', String(callbackPort), '--resource', resource], { stdio: ['ignore', 'pipe', 'pipe'] });
    // Watched from the start: the suite may exit (token exchanged) before the page has settled.
    const exited = new Promise<number | null>((resolve) => suite.once('exit', resolve));
    let out = '';
    suite.stdout.on('data', (d) => (out += d));
    suite.stderr.on('data', (d) => (out += d));
    const authUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no authorization URL printed:\n${out}`)), 60_000);
      const look = () => {
        const m = new RegExp(`(${issuer.replace(/[.]/g, '\\.')}/auth\\?\\S+)`).exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      };
      suite.stdout.on('data', look);
      suite.on('exit', () => reject(new Error(`the suite exited:\n${out}`)));
    });
    const page = await browser.newPage();
    await page.goto(authUrl);
    await page.fill('#username', 'alice');
    await page.fill('#password', 'wrong');
    await page.click('button[type=submit]');
    expect(await page.textContent('.error')).to.equal('Wrong username or password.');
    await page.fill('#username', 'alice');
    await page.fill('#password', 'correct horse');
    await page.click('button[type=submit]');
    await page.waitForSelector('#allow', { timeout: 15_000 }).catch(async () => { throw new Error('no consent page: ' + page.url() + ' ' + (await page.content()).slice(0, 1500)); });
    expect(await page.textContent('body')).to.include(resource);
    await page.click('#allow');
    await page.waitForURL(/\/callback\?/);
    const code = await exited;
    // The suite's summary: every check passed, none failed, nothing flagged as a warning.
    expect(out, out).to.match(/Total: [1-9]\d* passed, 0 failed/);
    expect(out, out).to.not.match(/warning/i);
    expect(code, out).to.equal(0);
    await page.close();
  });
});
