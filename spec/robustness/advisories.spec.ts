// The official SDK's security advisory classes, as regression tests of our own: DNS rebinding
// protection on by default, URI template matching that cannot be driven into super-linear time
// (ReDoS), and one server instance shared by several transports never answering the wrong client.
import { expect } from 'chai';
import { request } from 'node:http';
import { Client } from '../../lib/entries/client.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { UriTemplate } from '../../lib/server-features/uri-template.js';
import { createMemoryPair } from '../../streams/memory.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { CLIENT_INFO, SERVER_INFO } from '../helpers/raw-peer.js';

/**
 * Steps the matcher takes on `uri`: every character it reads (`charCodeAt`) and every literal it
 * compares (`startsWith`, `indexOf`), counted by wrapping those String methods for the call.
 * Deterministic, unlike wall-clock time on a shared machine.
 */
function stepsOf(template: UriTemplate, uri: string): { steps: number; matched: boolean } {
  const proto = String.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const names = ['charCodeAt', 'startsWith', 'indexOf', 'lastIndexOf'];
  const originals = names.map((n) => proto[n]!);
  let steps = 0;
  names.forEach((n, i) => {
    const original = originals[i]!;
    proto[n] = function (this: string, ...args: unknown[]) {
      steps += n === 'charCodeAt' ? 1 : Math.max(1, String(args[0]).length);
      return original.apply(this, args);
    };
  });
  try {
    const matched = template.match(uri) !== null;
    return { steps, matched };
  } finally {
    names.forEach((n, i) => (proto[n] = originals[i]!));
  }
}

describe('robustness: regression tests for the official SDK advisory classes', function () {
  this.timeout(30_000);

  it('[HTTP-002] DNS rebinding: a handler with default options on listen() refuses a forged Host and a foreign Origin', async () => {
    const mcp = createMcpServer({ info: SERVER_INFO });
    const listening: Listening = await listen(createStreamableHttpHandler(mcp.server), { port: 0, logger: false });
    try {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      // fetch will not send a forged Host; node:http will.
      const forgedHost = await new Promise<number>((resolve, reject) => {
        const req = request(listening.url, { method: 'POST', headers: { ...headers, host: `attacker.example:${listening.port}` } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end(body);
      });
      expect(forgedHost).to.equal(403);
      const foreignOrigin = await fetch(listening.url, { method: 'POST', headers: { ...headers, origin: 'http://attacker.example' }, body });
      expect(foreignOrigin.status).to.equal(403);
      await foreignOrigin.text();
      const fine = await fetch(listening.url, { method: 'POST', headers, body });
      expect(fine.status).to.equal(200);
      await fine.text();
      expect(listening.host).to.equal('127.0.0.1');
    } finally {
      await listening.close();
    }
  });

  describe('URI template ReDoS: matching takes steps linear in the URI, whatever the template', () => {
    // Templates and URIs that drive a backtracking regex (the SDK's approach) into polynomial
    // or exponential time.
    const cases: [string, (n: number) => string][] = [
      ['{a}-{b}-{c}-{d}-{e}.json', (n) => '-'.repeat(n)],
      ['{a}-{b}-{c}-{d}-{e}.json', (n) => 'a-'.repeat(n / 2) + '!'],
      ['{+a}/{+b}/{+c}/x', (n) => '/'.repeat(n)],
      ['{+a}aaaaaaaaab', (n) => 'a'.repeat(n)],
      ['res://{a}{b}{c}{d}{e}{f}{g}{h}z', (n) => 'res://' + 'y'.repeat(n)],
      ['x{/p*}{?q*}{#f}', (n) => 'x' + '/a'.repeat(n / 2) + '?' + '&'.repeat(100)],
      ['{;a,b,c*}', (n) => ';' + 'a=1;'.repeat(n / 4)],
      ['file:///{+path}.{ext}', (n) => 'file:///' + 'a.'.repeat(n / 2)],
    ];
    for (const [i, [template, uriOf]] of cases.entries()) {
      it(`${i + 1}. ${template}: steps grow linearly (doubling the URI at most doubles them, plus slack) and stay under 40 per character`, () => {
        const t = new UriTemplate(template);
        const small = stepsOf(t, uriOf(10_000));
        const large = stepsOf(t, uriOf(20_000));
        expect(large.steps, `${small.steps} → ${large.steps} steps`).to.be.at.most(2.2 * small.steps + 100);
        expect(small.steps, 'the counter sees the matcher work').to.be.greaterThan(10_000);
        expect(large.steps / uriOf(20_000).length).to.be.below(40);
        expect(large.matched).to.equal(small.matched);
      });
    }
  });

  it('one server instance shared by several transports (memory and HTTP, 6 clients) never answers the wrong client', async () => {
    const mcp = createMcpServer({ info: SERVER_INFO });
    // Answers after a few turns of the event loop, so that the clients' calls interleave.
    mcp.registerTool('whoami', { description: 'echoes who asked' }, async (args: Record<string, unknown> | undefined) => {
      for (let i = 0; i < 1 + Math.floor(Math.random() * 5); i++) await new Promise((r) => setImmediate(r));
      return String(args?.me);
    });
    const listening: Listening = await listen(createStreamableHttpHandler(mcp.server), { port: 0, logger: false });
    const clients: Client[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const [a, b] = createMemoryPair();
        await mcp.connect(a);
        const c = new Client({ info: CLIENT_INFO });
        await c.connect(b);
        clients.push(c);
      }
      for (let i = 0; i < 3; i++) {
        const c = new Client({ info: CLIENT_INFO });
        await c.connect(createStreamableHttpClientTransport(listening.url, { openStandaloneStream: false }));
        clients.push(c);
      }
      // Every client's request ids run 1, 2, 3…: the same ids are in flight on every transport.
      const calls = clients.flatMap((c, who) =>
        Array.from({ length: 20 }, (_, k) =>
          c.callTool('whoami', { me: `${who}:${k}` }).then((r) => ({ want: `${who}:${k}`, got: (r.content as { text: string }[])[0]!.text })),
        ),
      );
      for (const { want, got } of await Promise.all(calls)) expect(got).to.equal(want);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
      await listening.close();
    }
  });
});
