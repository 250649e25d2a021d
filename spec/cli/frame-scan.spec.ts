// The recorder's one look at a captured line (lib/cli/frame-scan.ts) decides whether its bytes go
// into the journal as they came. A wrong "yes" is a leak (a secret the redaction would have hidden)
// or an unreadable journal (something JSON.parse refuses); a "no" only costs time. So: every "yes"
// must parse to an object that redaction leaves unchanged (strings holding JSON included: issue 32,
// 7f), checked on hand-picked lines, on lines built to hide secrets, and on many random mutations;
// and the frames a server sends all day (requests, answers, progress) must get a "yes", or the
// recorder is slow again.
import { expect } from 'chai';
import { mutated, random } from './text-mutations.js';
import { plainObjectLine } from '../../lib/cli/frame-scan.js';
import { Redactor } from '../../lib/shared/redactor.js';

/** The line with its line feed, as bytes; the scan's answer, as "journal as it came" or not. */
function asIs(line: string | Uint8Array, extra: string[] = []): boolean {
  const head = typeof line === 'string' ? Buffer.from(line, 'utf8') : Buffer.from(line);
  // Bytes after the line (the next record in the ring) must not change the answer.
  const bytes = Buffer.concat([Buffer.from('  '), head, Buffer.from('\n{"next":1}\n')]);
  const lf = plainObjectLine(bytes, 2, bytes.length, extra.length === 0 ? null : new Set(extra.map((k) => k.toLowerCase())));
  if (lf >= 0) expect(lf, 'the line feed that ends the line').to.equal(2 + head.length);
  return lf >= 0;
}

/** What a "yes" promises: the line parses to an object, and redaction would change nothing in it. */
function safeAsIs(line: string, extra: string[] = []): boolean {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return false;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const redactor = new Redactor(extra);
  return JSON.stringify(redactor.value(value)) === JSON.stringify(value) && redactor.count === 0;
}


const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
const everyday = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { sampling: {}, elicitation: { form: {} } }, clientInfo: { name: 'ide', version: '1.2.3' } } },
  { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' }, _meta: meta } },
  { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'hello' }], resultType: 'complete' } },
  { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p-1', progress: 0.5, total: 10, message: 'half way' } },
  { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'count', arguments: {}, _meta: { progressToken: 3 } } },
  { jsonrpc: '2.0', id: 3, result: { tools: [{ name: 'get_token_count', description: 'Counts the tokens in a text', inputSchema: { type: 'object', properties: { text: { type: 'string' }, maxTokens: { type: 'integer' } } } }] } },
  { jsonrpc: '2.0', id: 4, result: { contents: [{ uri: 'file:///a.txt', mimeType: 'text/plain', text: 'é✓日🎉 \n\t "quoted" \\ / \u2028' }] } },
  { jsonrpc: '2.0', id: 5, error: { code: -32602, message: 'Unknown tool: nope', data: { tool: 'nope' } } },
];

describe('record: the one look that lets a captured line be journaled as it came', () => {
  it('says yes to the frames a session is made of, whatever their characters', () => {
    for (const f of everyday) expect(asIs(JSON.stringify(f)), JSON.stringify(f)).to.equal(true);
    expect(asIs(JSON.stringify(everyday[1], null, 1).replace(/\n/g, ' ') + ' \r'), 'spaces and a carriage return around it').to.equal(true);
  });

  it('never says yes to a line JSON.parse refuses or that is not an object, and agrees on the rest of the grammar', () => {
    const valid = ['{}', ' { } ', '{"a":1}', '{"a":[1,2,{"b":null}],"c":true,"d":false}', '{"a":-0.5e+10}', '{"a":0}', '{"a":1E5}', '{"s":"\\u00e9\\n\\t\\"\\\\\\/"}', '{"s":"é✓日🎉"}', '{"a":[]}', '{"a":[[]]}', '{"a":{}}', '{"a":1.5e-3}', '{"a":[{"b":[{"c":[]}]}]}'];
    const invalid = ['', '{', '}', '[]', '[{}]', '"x"', '1', 'null', '{"a":1}x', '{"a":1,}', '{"a":[1,]}', '{,}', '{"a" 1}', '{a:1}', "{'a':1}", '{"a":01}', '{"a":1.}', '{"a":.5}', '{"a":-}', '{"a":1e}', '{"a":+1}', '{"a":NaN}', '{"a":tru}', '{"a":"\\x"}', '{"a":"\\u12"}', '{"a":"\\u12G4"}', '{"a":"tab\there"}', '\ufeff{}', '{"a":1}{"b":2}', '{"a":[1 2]}', '{"a":1 "b":2}', '{"a":"unterminated}', '{"a":{"b":1}', '{"a":1}}', '{"a":]}', '{"a":1e+}', '{"a":-01}'];
    for (const c of valid) expect(asIs(c), JSON.stringify(c)).to.equal(true);
    for (const c of invalid) expect(asIs(c), JSON.stringify(c)).to.equal(false);
    // Bytes that are not UTF-8 inside a string: the journal must stay UTF-8, so they are decoded instead.
    expect(asIs(Buffer.concat([Buffer.from('{"a":"'), Buffer.of(0xff), Buffer.from('"}')]))).to.equal(false);
    expect(asIs(Buffer.concat([Buffer.from('{"a":"'), Buffer.of(0xe6, 0x97), Buffer.from('"}')]))).to.equal(false); // a character cut short
  });

  it('says no to every line redaction would change: secret-named keys however written, --redact keys, credentials in text, escapes that could spell them', () => {
    const secrets = [
      '{"params":{"arguments":{"password":"hunter2"}}}',
      '{"access_token":"x"}', '{"refresh-token":"x"}', '{"myProgressToken":"x"}', '{"progress_token":"x"}', '{"API-Key":"x"}', '{"x_api_key":"x"}',
      '{"client_secret":"x"}', '{"Authorization":"x"}', '{"set-cookie":"x"}', '{"session_id":"x"}', '{"privateKey":"x"}',
      '{"passwd":"x"}', '{"passphrase":"x"}', '{"credentials":"x"}', '{"a":[{"b":{"TOKEN":"x"}}]}',
      '{"headers":"Bearer abcdefgh12345678"}', '{"h":["x","Basic dXNlcjpwYXNzd29yZA=="]}', '{"text":"use B\\u0065arer abcdefgh12345678"}', '{"\\u0074oken":"x"}', '{"to\\u006ben":"x"}',
    ];
    for (const s of secrets) {
      expect(safeAsIs(s), `redaction changes ${s}`).to.equal(false);
      expect(asIs(s), s).to.equal(false);
    }
    expect(asIs('{"city":"Paris"}', ['City'])).to.equal(false);
    expect(asIs('{"sessionId":"s-1"}', ['sessionid'])).to.equal(false);
    // A key of 200,000 characters with --redact keys: no exception (too many arguments), just the slow path.
    expect(asIs(`{"${'k'.repeat(200_000)}":1}`, ['city'])).to.equal(false);
    expect(asIs(`{"${'k'.repeat(200_000)}":1}`)).to.equal(true);
    expect(asIs('{"city":"Paris"}')).to.equal(true);
    // What only looks like a secret is journaled as it came: the redaction would keep it too.
    for (const s of ['{"_meta":{"progressToken":7}}', '{"maxTokens":100}', '{"tokenCount":3}', '{"text":"a token, a password, a secret"}', '{"text":"Basically"}', '{"text":"Bearers"}']) {
      expect(safeAsIs(s), s).to.equal(true);
      expect(asIs(s), s).to.equal(true);
    }
  });

  it('judges keys exactly as the redaction does, on 20,000 random keys made of secret words, separators and case', () => {
    const rnd = random(7);
    const parts = ['pass', 'word', 'wd', 'phrase', 'secret', 'token', 'tokens', 'api', 'key', 'auth', 'orization', 'set', 'cookie', 'credential', 's', 'private', 'session', 'id', 'progress', 'max', 'x', '_', '-', '.', ' ', '/', '9'];
    let secret = 0;
    for (let k = 0; k < 20000; k++) {
      let key = '';
      for (let n = 1 + Math.floor(rnd() * 4); n > 0; n--) key += parts[Math.floor(rnd() * parts.length)]!;
      key = [...key].map((c) => (rnd() < 0.3 ? c.toUpperCase() : c)).join('');
      if (key === 'sessionId') continue; // hidden only on request (checked above)
      const line = JSON.stringify({ [key]: 'v' });
      const hidden = !safeAsIs(line);
      if (hidden) secret++;
      if (asIs(line) === hidden) expect.fail(`${hidden ? 'a secret' : 'no secret'} for the redaction, and the scan says ${hidden ? 'yes' : 'no'}: ${line}`);
    }
    expect(secret).to.be.within(2000, 18000);
  });

  it('keeps its promise on 50,000 random mutations of frames with and without secrets', () => {
    const rnd = random(20261127);
    const frames = [
      ...everyday.map((f) => JSON.stringify(f)),
      JSON.stringify({ jsonrpc: '2.0', id: 'a-1', params: { arguments: { api_key: 'k', note: 'Bearer abcdefgh1234' } } }),
      JSON.stringify({ jsonrpc: '2.0', id: 9, result: { token: 'abc', nested: [{ Cookie: 'c' }] } }),
    ];
    const alphabet = '{}[]":,.-+eE0123456789 \\\n\tutrfalsnkoBeBasicBearer_-\u00e9\ud83c';
    let yes = 0;
    for (let k = 0; k < 50000; k++) {
      const s = mutated(rnd, frames, alphabet);
      if (s.includes('\n')) continue; // a line never holds a line feed: the recorder splits there first
      const scanned = asIs(s);
      if (scanned) yes++;
      if (scanned && !safeAsIs(s)) expect.fail(`journaled as it came, but JSON.parse refuses it or redaction changes it: ${JSON.stringify(s)}`);
    }
    expect(yes).to.be.greaterThan(5000); // both answers are exercised
  });

  it('says no to a string holding JSON with a secret inside (however nested or escaped), and the redaction hides it', () => {
    const enc = JSON.stringify;
    const secrets = [
      enc({ params: { name: 'login', arguments: { config: enc({ user: 'ann', password: 'hunter2' }) } } }),
      enc({ a: ' \n\t' + enc({ token: 'hunter2' }) }),
      enc({ a: enc([{ api_key: 'hunter2' }]) }),
      enc({ a: enc({ b: enc({ clientSecret: 'hunter2' }) }) }),
      enc({ a: enc({ headers: ['Bearer hunter2hunter2'] }) }),
      enc({ a: enc({ nested: { deeper: [{ Cookie: 'hunter2' }] } }) }),
      // The key spelled with an escape, inside the string: it decodes to "password" when parsed.
      '{"a":"{\\"pass\\u0077ord\\":\\"hunter2\\"}"}',
      '{"a":"{\\"pass\\\\u0077ord\\":\\"hunter2\\"}"}',
    ];
    for (const line of secrets) {
      expect(asIs(line), line).to.equal(false);
      const redactor = new Redactor();
      const out = enc(redactor.value(JSON.parse(line)));
      expect(out, line).to.not.include('hunter2');
      expect(redactor.count, line).to.be.greaterThan(0);
    }
    // Re-encoded as JSON with the secret hidden, the rest kept.
    const args = (new Redactor().value(JSON.parse(secrets[0]!)) as any).params.arguments;
    expect(JSON.parse(args.config)).to.deep.equal({ user: 'ann', password: '[REDACTED]' });
    // --redact keys apply inside too.
    expect(enc(new Redactor(['city']).value({ a: enc({ city: 'Paris' }) }))).to.not.include('Paris');
    expect(asIs(enc({ a: enc({ town: 'Paris' }) }), ['city'])).to.equal(false);
  });

  it('keeps strings holding JSON without secrets as they came (not re-encoded), and journals them as they came', () => {
    const enc = JSON.stringify;
    const plain = [
      enc({ jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: enc({ temperature: 21.5, city: 'Paris', tags: ['a', 'b'] }, null, 2) }] } }),
      enc({ a: '{not json' }),
      enc({ a: '[1, 2, 3]' }),
    ];
    for (const line of plain) {
      expect(safeAsIs(line), line).to.equal(true);
      expect(asIs(line), line).to.equal(true);
    }
    // What the scan leaves to the slow path without a secret inside is kept byte for byte too.
    for (const text of ['{ "progressToken" : 1 }', ' {"text":"a token, in prose"', '{"sessionId": "s-1"}']) {
      const line = enc({ a: text });
      expect(asIs(line), line).to.equal(false);
      expect(safeAsIs(line), line).to.equal(true);
      expect(new Redactor().value(JSON.parse(line))).to.deep.equal({ a: text });
    }
  });

  it('bounds the look into strings holding JSON: too long or nested in too many strings, one that may hold a secret is hidden whole', async () => {
    const { MAX_EMBEDDED_JSON_CHARS, MAX_EMBEDDED_JSON_LEVELS } = await import('../../lib/shared/redactor.js');
    const enc = JSON.stringify;
    const long = enc({ token: 'hunter2', pad: 'x'.repeat(MAX_EMBEDDED_JSON_CHARS) });
    expect(asIs(enc({ a: long }))).to.equal(false);
    expect(new Redactor().value({ a: long })).to.deep.equal({ a: '[REDACTED]: JSON text too long or nested in too many strings to look through' });
    let deep: string = enc({ password: 'hunter2' });
    for (let k = 0; k < MAX_EMBEDDED_JSON_LEVELS + 2; k++) deep = enc({ k: deep });
    expect(enc(new Redactor().value({ a: deep }))).to.not.include('hunter2');
    // Without a secret word, both are kept as they are.
    const harmless = enc({ pad: 'x'.repeat(MAX_EMBEDDED_JSON_CHARS) });
    expect(new Redactor().value({ a: harmless })).to.deep.equal({ a: harmless });
  });

  it('keeps its promise on 50,000 random mutations of frames whose strings hold JSON', () => {
    const rnd = random(32_7);
    const enc = JSON.stringify;
    const frames = [
      enc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'q', arguments: { body: enc({ query: 'x', limit: 5, filter: [{ f: 'a' }] }) } } }),
      enc({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'q', arguments: { body: enc({ query: 'x', pass: 'p', word: 'w', tok: 't', en: 'e' }) } } }),
      enc({ jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: ' ' + enc([{ a: 1 }, { b: enc({ c: 'Bea' + 'rer x' }) }]) }] } }),
      enc({ a: enc({ b: enc({ c: 'd' }) }) }),
    ];
    const alphabet = '{}[]":,\\ ntuBearerBasic0123456789passwordtokensecretkey_-';
    let yes = 0;
    for (let k = 0; k < 50000; k++) {
      const s = mutated(rnd, frames, alphabet);
      if (s.includes('\n')) continue;
      const scanned = asIs(s);
      if (scanned) yes++;
      if (scanned && !safeAsIs(s)) expect.fail(`journaled as it came, but JSON.parse refuses it or redaction changes it: ${JSON.stringify(s)}`);
    }
    expect(yes).to.be.greaterThan(5000);
  });

  it('says no (and the recorder parses instead) beyond the depth it tracks', () => {
    expect(asIs('{"a":' + '['.repeat(500) + ']'.repeat(500) + '}')).to.equal(true);
    expect(asIs('{"a":' + '['.repeat(600) + ']'.repeat(600) + '}')).to.equal(false);
  });
});
