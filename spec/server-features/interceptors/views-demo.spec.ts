// Issue 29's done-when for per-caller views: the demo with --auth (a real child process and its
// embedded authorization server), two users' tokens of different scopes (signed in through
// chromium once each), both eras over HTTP: different lists, -32602 for what a caller cannot see.
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { InMemoryOAuthClientProvider } from '../../../lib/auth/provider.js';
import { Client } from '../../../lib/client.js';
import { McpError } from '../../../lib/errors.js';
import { createStreamableHttpClientTransport } from '../../../streams/streamable-http-client.js';
import { freePort } from '../../../scripts/real-parts/free-port.js';
import { browserAuthorize, launchChromium } from '../../auth/authorization-server/helpers.js';
import { startAuthDemo } from '../../auth/authorization-server/auth-demo.js';

describe('per-caller views over the demo with --auth (real process, real tokens, chromium)', function () {
  this.timeout(90_000);
  let browser: Browser;
  let child: ChildProcess;
  let mcpUrl: string;
  const providers: Record<'plain' | 'admin', InMemoryOAuthClientProvider> = {} as never;

  before(async () => {
    browser = await launchChromium();
    const demo = await startAuthDemo();
    child = demo.child;
    mcpUrl = `http://127.0.0.1:${demo.port}/mcp`;
    // One sign-in each: the plain client asks for what the metadata names (`mcp`); the admin one
    // also asks for `notebook:admin` (the scope parameter of its authorization request).
    for (const who of ['plain', 'admin'] as const) {
      // Nothing listens on the redirect: chromium's route answers it (browserAuthorize).
      const redirect = `http://127.0.0.1:${await freePort()}/callback`;
      const signIn = browserAuthorize(browser, redirect);
      const provider = new InMemoryOAuthClientProvider({
        redirectUrl: redirect,
        clientMetadata: { client_name: `${who} client` },
        authorize: (url) => {
          if (who === 'admin') url.searchParams.set('scope', `${url.searchParams.get('scope') ?? 'mcp'} notebook:admin`);
          return signIn(url);
        },
      });
      const client = new Client({ info: { name: who, version: '1' } });
      await client.connect(createStreamableHttpClientTransport(mcpUrl, { auth: provider }));
      await client.close();
      providers[who] = provider;
    }
  });
  after(async () => {
    child?.kill('SIGTERM');
    await browser?.close();
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`${era}: the admin token lists rebuild_index and weekly_review; the plain one does not, and gets -32602 naming them`, async () => {
      const connect = async (who: 'plain' | 'admin') => {
        const client = new Client({ era, info: { name: who, version: '1' } });
        await client.connect(createStreamableHttpClientTransport(mcpUrl, { auth: providers[who] }));
        return client;
      };
      const admin = await connect('admin');
      const plain = await connect('plain');
      try {
        const tools = async (c: Client) => (await c.listTools()).tools.map((t) => t.name);
        const prompts = async (c: Client) => (await c.listPrompts()).prompts.map((p) => p.name);
        expect(await tools(admin)).to.include('rebuild_index').and.include('convert_units');
        expect(await tools(plain)).to.include('convert_units').and.not.include('rebuild_index');
        expect(await prompts(admin)).to.include('weekly_review');
        expect(await prompts(plain)).to.not.include('weekly_review');
        const call = await plain.callTool('rebuild_index', {}).catch((e: unknown) => e);
        expect(call).to.be.instanceOf(McpError);
        expect((call as McpError).code).to.equal(-32602);
        expect((call as McpError).message).to.equal('Unknown tool: rebuild_index');
        const get = await plain.getPrompt('weekly_review', {}).catch((e: unknown) => e);
        expect((get as McpError).code).to.equal(-32602);
        expect((get as McpError).message).to.equal('Unknown prompt: weekly_review');
        // Nothing was signed in again: the tokens the two users got are what the server judged.
        expect(providers.admin.tokens()!.scope?.split(' ')).to.include('notebook:admin');
        expect(providers.plain.tokens()!.scope?.split(' ') ?? []).to.not.include('notebook:admin');
      } finally {
        await admin.close();
        await plain.close();
      }
    });
  }
});
