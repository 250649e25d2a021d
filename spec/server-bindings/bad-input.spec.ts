// Bad input through every adapter gets what the node handler answers: one table of requests
// (forged Host and Origin, oversized, malformed and empty bodies, wrong content types and Accept,
// wrong methods, unknown sessions, too deep nesting, a modern header mismatch, and with the
// bearer-token hook: missing, wrong, misplaced credentials), sent raw over node:http to the node
// handler (the reference: its status is checked against the table) and then to every other
// adapter, whose status, error body and telling headers must be the same.
//
// Two details differ by engine, not by adapter, and are normalized before comparing: the text of
// JSON.parse's error inside a -32700 message (V8 on Node and Deno, JavaScriptCore on Bun), and
// the byte count at which a chunked body over the limit was cut (the runtime's chunk sizes).
import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { createEverythingServer, type EverythingDemo } from '../../examples/everything-server.js';
import { GOOD_TOKEN, MAX_BODY_BYTES, fixtureOptions, type Fixture } from '../fixtures/fetch/options.js';
import { IN_PROCESS, RUNTIMES, bundle, mountInProcess, mountRuntime, removeBundles, type AdapterName, type Mounted } from './adapters.js';

interface Case {
  name: string;
  /** The node handler's status (checked), which every adapter must give too. */
  status: number;
  method?: string;
  /** Path instead of the endpoint's. */
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Send the body in pieces of this size without Content-Length (chunked). */
  chunked?: number;
  /** Adapters that answer this one themselves (a framework's own 404 outside its mount): left out. */
  only?: readonly AdapterName[];
}

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | undefined>;
}

const POST_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'table', version: '1' } },
});
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'table', version: '1' },
};
const nested = (depth: number) => `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}`;
const SERVES_EVERY_PATH: readonly AdapterName[] = ['node handler', 'fetch handler on Node', 'Bun', 'Deno'];

const CASES: Record<Fixture, Case[]> = {
  plain: [
    { name: 'a forged Host', status: 403, headers: { ...POST_HEADERS, host: 'evil.example' }, body: INIT },
    { name: 'a forged Host that starts like localhost', status: 403, headers: { ...POST_HEADERS, host: 'localhost.evil.example:3000' }, body: INIT },
    { name: 'a forged Origin', status: 403, headers: { ...POST_HEADERS, origin: 'http://evil.example' }, body: INIT },
    { name: 'Origin "null"', status: 403, headers: { ...POST_HEADERS, origin: 'null' }, body: INIT },
    { name: 'a forged Origin on GET', status: 403, method: 'GET', headers: { accept: 'text/event-stream', origin: 'https://evil.example' } },
    { name: 'a body over maxBodyBytes (Content-Length)', status: 413, headers: POST_HEADERS, body: ' '.repeat(MAX_BODY_BYTES + 1) },
    { name: 'a body over maxBodyBytes (chunked)', status: 413, headers: POST_HEADERS, body: ' '.repeat(MAX_BODY_BYTES + 1), chunked: 16 * 1024 },
    { name: 'malformed JSON', status: 400, headers: POST_HEADERS, body: '{"jsonrpc": "2.0", "id": 1, "method": ' },
    { name: 'an empty body', status: 400, headers: POST_HEADERS, body: '' },
    { name: 'JSON that is not JSON-RPC', status: 400, headers: POST_HEADERS, body: '{"hello":"world"}' },
    { name: 'a request nested deeper than the limit', status: 400, headers: POST_HEADERS, body: nested(200) },
    { name: 'a batch without a session', status: 400, headers: POST_HEADERS, body: `[${INIT}]` },
    { name: 'Content-Type text/plain', status: 415, headers: { ...POST_HEADERS, 'content-type': 'text/plain' }, body: INIT },
    { name: 'no Content-Type', status: 415, headers: { accept: POST_HEADERS.accept }, body: INIT },
    { name: 'Content-Type application/jsonp', status: 415, headers: { ...POST_HEADERS, 'content-type': 'application/jsonp' }, body: INIT },
    { name: 'Accept without text/event-stream', status: 406, headers: { ...POST_HEADERS, accept: 'application/json' }, body: INIT },
    { name: 'no Accept', status: 406, headers: { 'content-type': 'application/json' }, body: INIT },
    { name: 'PUT', status: 405, method: 'PUT', headers: POST_HEADERS, body: INIT },
    { name: 'PATCH', status: 405, method: 'PATCH', headers: POST_HEADERS, body: INIT },
    { name: 'GET without a session', status: 400, method: 'GET', headers: { accept: 'text/event-stream' } },
    { name: 'GET without Accept: text/event-stream', status: 406, method: 'GET', headers: { accept: 'application/json' } },
    { name: 'GET of an unknown session', status: 404, method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': 'no-such-session' } },
    { name: 'DELETE of an unknown session', status: 404, method: 'DELETE', headers: { 'mcp-session-id': 'no-such-session' } },
    { name: 'DELETE without a session', status: 400, method: 'DELETE' },
    {
      name: 'a request without a session',
      status: 400,
      headers: POST_HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    },
    {
      name: 'a request of an unknown session',
      status: 404,
      headers: { ...POST_HEADERS, 'mcp-session-id': 'no-such-session', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    },
    {
      name: 'a 2026-07-28 request whose Mcp-Method header differs from its body',
      status: 400,
      headers: { ...POST_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: MODERN_META } }),
    },
    {
      name: 'a 2026-07-28 request of an unsupported version',
      status: 400,
      headers: { ...POST_HEADERS, 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } }),
    },
    {
      name: 'a 2026-07-28 request for a method that does not exist',
      status: 404,
      headers: { ...POST_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'no/such' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'no/such', params: { _meta: MODERN_META } }),
    },
    { name: 'a path that is not the endpoint', status: 404, path: '/not-mcp', headers: POST_HEADERS, body: INIT, only: SERVES_EVERY_PATH },
  ],
  auth: [
    { name: 'no credentials', status: 401, headers: POST_HEADERS, body: INIT },
    { name: 'an unknown token', status: 401, headers: { ...POST_HEADERS, authorization: 'Bearer not-a-good-token' }, body: INIT },
    { name: 'another scheme', status: 401, headers: { ...POST_HEADERS, authorization: 'Basic dXNlcjpwYXNz' }, body: INIT },
    { name: 'a malformed Bearer header', status: 400, headers: { ...POST_HEADERS, authorization: 'Bearer two words' }, body: INIT },
    { name: 'a token in the query string', status: 400, path: '/mcp?access_token=good-token', headers: POST_HEADERS, body: INIT },
    { name: 'a good token with a forged Host (the Host check comes first)', status: 403, headers: { ...POST_HEADERS, authorization: `Bearer ${GOOD_TOKEN}`, host: 'evil.example' }, body: INIT },
    { name: 'a good token with a body over the limit', status: 413, headers: { ...POST_HEADERS, authorization: `Bearer ${GOOD_TOKEN}` }, body: ' '.repeat(MAX_BODY_BYTES + 1) },
    { name: 'a good token with malformed JSON', status: 400, headers: { ...POST_HEADERS, authorization: `Bearer ${GOOD_TOKEN}` }, body: '[' },
    { name: 'a good token on an unknown session', status: 404, method: 'DELETE', headers: { authorization: `Bearer ${GOOD_TOKEN}`, 'mcp-session-id': 'nope' } },
  ],
};

/** Headers whose value must be the same everywhere (when the reference sends them). */
const TELLING = ['allow', 'www-authenticate', 'content-type', 'mcp-session-id'];

function send(url: string, c: Case): Promise<Answer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: target.hostname, port: target.port, method: c.method ?? 'POST', path: c.path ?? target.pathname, headers: c.headers ?? {}, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (s: string) => (body += s));
        res.on('end', () => {
          const headers: Record<string, string | undefined> = {};
          for (const h of TELLING) headers[h] = res.headers[h] === undefined ? undefined : String(res.headers[h]);
          resolve({ status: res.statusCode ?? 0, body, headers });
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(20_000, () => req.destroy(new Error(`no answer to "${c.name}" within 20 s`)));
    // A server that answers before reading all of a refused body may reset the connection under
    // the rest: the answer has arrived by then, so a write error is not the test's business.
    req.on('error', (e) => (req.writableEnded ? undefined : reject(e)));
    const body = c.body;
    if (body === undefined || body === '') {
      req.end(body);
      return;
    }
    if (c.chunked === undefined) {
      req.setHeader('content-length', Buffer.byteLength(body));
      req.end(body);
      return;
    }
    for (let i = 0; i < body.length; i += c.chunked) req.write(body.slice(i, i + c.chunked));
    req.end();
  });
}

/** An answer with the engine's JSON.parse wording and a chunked cut's byte count taken out. */
function normalize(a: Answer): Answer {
  const parsed = JSON.parse(a.body) as { error?: { message?: unknown } };
  const message = parsed.error?.message;
  if (typeof message === 'string') {
    parsed.error!.message = message.startsWith('Parse error: invalid JSON (') ? 'Parse error: invalid JSON (…)' : message.replace(/has \d+ bytes or more/, 'has N bytes or more');
  }
  return { ...a, body: JSON.stringify(parsed) };
}

describe('bad input through every adapter: the node handler’s status and error body everywhere [HTTP-002] [HTTP-010]', function () {
  this.timeout(60_000);
  after(() => removeBundles());

  describe('defaults (maxBodyBytes 64 KiB)', () => table('plain'));
  describe('[HTTP-004] [SEC-003] with requireBearerAuth', () => table('auth'));
});

/** Every case of `fixture` through every adapter, each served with the fixture's options. */
function table(fixture: Fixture): void {
  const mounted = new Map<AdapterName, Mounted>();
  const demos: EverythingDemo[] = [];
  before(async function () {
    this.timeout(120_000);
    for (const name of IN_PROCESS) {
      const demo = createEverythingServer();
      demos.push(demo);
      mounted.set(name, await mountInProcess(name, demo.mcp, fixtureOptions(fixture)));
    }
    const script = await bundle('spec/fixtures/fetch/serve.ts');
    for (const name of RUNTIMES) mounted.set(name, await mountRuntime(name as 'Bun' | 'Deno', script, [], { FIXTURE: fixture }));
  });
  after(async () => {
    await Promise.all([...mounted.values()].map((m) => m.close()));
    for (const d of demos) d.stop();
  });

  for (const c of CASES[fixture]) {
    it(`${c.name}: ${c.status}`, async () => {
      const reference = await send(mounted.get('node handler')!.url, c);
      expect(reference.status, `node handler: ${reference.body}`).to.equal(c.status);
      // Every refusal is JSON: a JSON-RPC error response, or an OAuth error (RFC 6750) for credentials.
      expect(reference.headers['content-type'], 'content-type').to.equal('application/json');
      const error = (JSON.parse(reference.body) as { error?: string | { code?: unknown } }).error;
      expect(typeof error === 'string' || typeof error?.code === 'number', reference.body).to.equal(true);
      const expected = normalize(reference);
      for (const [name, m] of mounted) {
        if (name === 'node handler' || (c.only !== undefined && !c.only.includes(name))) continue;
        const got = normalize(await send(m.url, c));
        expect(got, `${name}, "${c.name}"`).to.deep.equal(expected);
      }
    });
  }
}
