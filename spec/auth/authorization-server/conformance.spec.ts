// Our authorization server (on oidc-provider) against the official conformance suite 0.2.0-alpha.12's
// authorization scenarios: its RFC 8414 metadata, and the authorization code grant, where the suite
// prints the authorization URL for a person: chromium (playwright-core) signs in and allows on our
// pages, the suite's callback gets the code and exchanges it.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { createAuthorizationServer } from '../../../lib/auth/authorization-server/authorization-server.js';
import { memoryAccounts } from '../../../lib/auth/authorization-server/accounts.js';
import { listensOn, PortTaken, startOnFreePort } from '../../helpers/free-port.js';

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
  let browser: Browser;
  let node: string;
  const resource = 'http://127.0.0.1:9/mcp';

  /**
   * The suite's authorization scenarios, its callback server on `callbackPort`; resolves with the
   * authorization URL it prints for a person once that server listens. Its callback port must be
   * in the redirect URI it sends, so it cannot be 0: a port taken before it binds is a PortTaken
   * (told by who holds the port, as the suite prints "started" either way).
   */
  async function startSuite(callbackPort: number): Promise<{ suite: ChildProcess; exited: Promise<number | null>; authUrl: string; output: () => string }> {
    const suite = spawn(node, [CLI, 'authorization', '--url', issuer, '--client-id', 'conformance', '--port', String(callbackPort), '--resource', resource], { stdio: ['ignore', 'pipe', 'pipe'] });
    // Watched from the start: the suite may exit (token exchanged) before the page has settled.
    const exited = new Promise<number | null>((resolve) => suite.once('exit', resolve));
    let out = '';
    suite.stdout!.on('data', (d) => (out += d));
    suite.stderr!.on('data', (d) => (out += d));
    try {
      const authUrl = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no authorization URL printed:\n${out}`)), 60_000);
        const look = () => {
          if (/EADDRINUSE/.test(out)) {
            clearTimeout(timer);
            reject(new PortTaken(callbackPort, 'the suite\'s callback server'));
          }
          const m = new RegExp(`(${issuer.replace(/[.]/g, '\\.')}/auth\\?\\S+)`).exec(out);
          if (m && out.includes(`Callback server started: http://127.0.0.1:${callbackPort}`)) {
            clearTimeout(timer);
            // It prints "started" even when its bind failed: the port must be the suite's own.
            if (listensOn(suite.pid!, callbackPort) === false) reject(new PortTaken(callbackPort, 'the suite\'s callback server did not bind it'));
            else resolve(m[1]!);
          }
        };
        suite.stdout!.on('data', look);
        suite.stderr!.on('data', look);
        suite.once('exit', () => {
          clearTimeout(timer);
          reject(/EADDRINUSE/.test(out) ? new PortTaken(callbackPort, 'the suite\'s callback server') : new Error(`the suite exited:\n${out}`));
        });
      });
      return { suite, exited, authUrl, output: () => out };
    } catch (e) {
      suite.kill('SIGKILL');
      await exited;
      throw e;
    }
  }

  before(async function () {
    this.timeout(180_000);
    if (!existsSync(CHROMIUM)) throw new Error(`No chromium at ${CHROMIUM}`);
    node = await node22();
    // Listening first (port 0), so the issuer is the origin it listens on; the handler comes once it exists.
    let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
    http = createServer((req, res) => handler(req, res));
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
    issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    const as = await createAuthorizationServer({
      issuer,
      resources: [{ uri: resource, scopes: ['mcp'] }],
      accounts: memoryAccounts({ alice: 'correct horse' }),
      // A native client's loopback redirect matches on any port (RFC 8252 section 7.3): the suite's
      // callback port is picked when it starts, and picked again if another process took it.
      clients: [{ client_id: 'conformance', application_type: 'native', token_endpoint_auth_method: 'none', redirect_uris: ['http://127.0.0.1/callback'], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }],
    });
    handler = (req, res) => as.handler(req, res);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update'] });
  });
  after(async () => {
    await browser?.close();
    http?.close();
  });

  it('[AUTH-008] [AUTH-125] authorization-server-metadata-endpoint and authorization-code-grant: clean, a person signing in and allowing in chromium', async () => {
    const { exited, authUrl, output } = await startOnFreePort((callbackPort) => startSuite(callbackPort));
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
    expect(output(), output()).to.match(/Total: [1-9]\d* passed, 0 failed/);
    expect(output(), output()).to.not.match(/warning/i);
    expect(code, output()).to.equal(0);
    await page.close();
  });
});
