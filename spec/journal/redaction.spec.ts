// Secrets in a library journal (issue 32): a client recorded with `journal: true` keeps no
// password, api key, bearer credential or token, in either era, also inside strings that hold
// JSON; the redacted journal still replays to the same frames; `journal: { redact: false }` keeps
// the frames as they came.
import { expect } from 'chai';
import { Client } from '../../lib/client.js';
import { ManualClock } from '../../lib/clock.js';
import { Journal } from '../../lib/journal/journal.js';
import { replay } from '../../lib/journal/replay.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { Server } from '../../lib/server.js';
import { isSecretKey, SECRET_KEY_WORDS } from '../../lib/shared/secret-keys.js';
import { createMemoryPair } from '../../streams/memory.js';
import { CLIENT_INFO, SERVER_INFO, settle } from '../helpers/raw-peer.js';

const SECRETS = ['hunter2', 'sk-live-123', 'abcdefghijkl', 'tok_secret_1'];

function loginServer(): McpServer {
  const mcp = createMcpServer({ info: { name: 'login', version: '1.0.0' }, listChangedDebounceMs: 0 });
  // The answer is a string that holds JSON with a token in it.
  mcp.registerTool('login', { description: 'logs in' }, async (args) => JSON.stringify({ user: (args as { user?: string }).user, accessToken: 'tok_secret_1' }));
  return mcp;
}

async function recordedLogin(era: 'modern' | 'legacy', journal: boolean | { redact?: boolean }): Promise<{ client: Client; text: string; mcp: McpServer }> {
  const mcp = loginServer();
  const [a, b] = createMemoryPair();
  await mcp.connect(a);
  const client = new Client({ info: { name: 'journal-spec', version: '1' }, era, clock: new ManualClock(1_000), journal });
  await client.connect(b);
  const result = await client.callTool('login', { user: 'ada', password: 'hunter2', config: JSON.stringify({ region: 'eu', apiKey: 'sk-live-123' }), header: 'Bearer abcdefghijkl' });
  await client.close();
  return { client, text: (result.content[0] as { text: string }).text, mcp };
}

for (const era of ['modern', 'legacy'] as const) {
  describe(`journal redaction (${era} era)`, () => {
    it('a journal recorded with `journal: true` holds no secret, in its entries or its JSONL, and replays to the same frames', async () => {
      const { client, text, mcp } = await recordedLogin(era, true);
      try {
        // What the user got is untouched: only the record is redacted.
        expect(text).to.include('tok_secret_1');
        const journal = client.journal!;
        const jsonl = journal.toJSONL();
        for (const secret of SECRETS) {
          expect(jsonl, secret).to.not.include(secret);
          expect(JSON.stringify(journal.entries), secret).to.not.include(secret);
        }
        expect(journal.header.redacted).to.equal(true);
        const call = journal.entries.find((e) => e.kind === 'out' && JSON.stringify(e.frame).includes('"login"')) as { frame: { params: { arguments: Record<string, string> } } };
        expect(call.frame.params.arguments).to.deep.equal({ user: 'ada', password: '[REDACTED]', config: JSON.stringify({ region: 'eu', apiKey: '[REDACTED]' }), header: 'Bearer [REDACTED]' });
        expect(jsonl).to.include('\\"user\\":\\"ada\\"').and.to.include('accessToken');

        for (const input of [jsonl, journal, Journal.parse(jsonl)]) {
          const result = await replay(input);
          expect(result.firstDifference).to.equal(undefined);
          expect(result.matches).to.equal(true);
          expect(result.compared).to.be.greaterThan(1);
        }
      } finally {
        await mcp.close();
      }
    });

    it('`journal: { redact: false }` records the frames as they came, and they replay', async () => {
      const { client, mcp } = await recordedLogin(era, { redact: false });
      try {
        const jsonl = client.journal!.toJSONL();
        for (const secret of SECRETS) expect(jsonl, secret).to.include(secret);
        expect(client.journal!.header).to.not.have.property('redacted');
        expect((await replay(jsonl)).matches).to.equal(true);
      } finally {
        await mcp.close();
      }
    });
  });
}

describe('journal redaction (a server session)', () => {
  it('a server journal hides the secrets its handlers answer with; replayed with live handlers, the replayed frames are hidden alike and match', async () => {
    const [a, b] = createMemoryPair();
    const server = new Server({ info: SERVER_INFO, capabilities: { tools: {} }, journal: true });
    const handler = (p: any) => ({ content: [{ type: 'text', text: JSON.stringify({ user: p.arguments.user, accessToken: 'tok_secret_1' }) }], _meta: { sessionToken: 'tok_secret_1' } });
    server.onRequest('tools/call', handler);
    const session = await server.connect(a);
    const client = new Client({ era: 'legacy', info: CLIENT_INFO });
    await client.connect(b);
    const answer = await client.request('tools/call', { name: 'login', arguments: { user: 'ada', password: 'hunter2' } });
    expect(JSON.stringify(answer)).to.include('tok_secret_1');
    await client.close();
    await settle();
    const jsonl = session.journal!.toJSONL();
    for (const secret of ['hunter2', 'tok_secret_1']) expect(jsonl, secret).to.not.include(secret);
    // The handler answers with the live token again: compared redacted, as it was recorded.
    const result = await replay(jsonl, { setup: (s) => s.onRequest('tools/call', handler) });
    expect(result.firstDifference).to.equal(undefined);
    expect(result.matches).to.equal(true);
  });
});

describe('journal redaction: the quick check of an entry agrees with the walk', () => {
  // A journal keeps an entry's text as it is when a quick look finds no secret word in it: every
  // key the redaction hides must be found by that look, however it is cased or separated.
  const keys = SECRET_KEY_WORDS.flatMap((w) => [w, w.toUpperCase(), `my_${w}`, `x${w[0]!.toUpperCase()}${w.slice(1)}`, `${w.slice(0, 2)}_${w.slice(2)}`, `${w.slice(0, 3)}-${w.slice(3, 4)}.${w.slice(4)}`]);
  const progress = ['ProgressToken', 'progressTOKEN', 'progress_token', 'myProgressToken', 'progress-token'];
  for (const key of [...keys, ...progress]) {
    it(`hides the value of "${key}"`, () => {
      expect(isSecretKey(key), `${key} names a secret`).to.equal(true);
      const journal = new Journal({ redact: true });
      journal.push({ kind: 'out', seq: 0, t: 0, frame: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: { [key]: 'hush-1234' } } } });
      expect(journal.toJSONL()).to.not.include('hush-1234');
      expect(JSON.stringify(journal.entries)).to.not.include('hush-1234');
    });
  }
  it('keeps a progress token, and hides a credential after a tab or in JSON held in a string', () => {
    const journal = new Journal({ redact: true });
    journal.push({ kind: 'out', seq: 0, t: 0, frame: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: { h: 'Basic\tYWxhZGRpbjpvcGVu', c: JSON.stringify({ pass_word: 'hush-5678' }) }, _meta: { progressToken: 'p-1' } } } });
    const text = journal.toJSONL();
    expect(text).to.include('p-1');
    expect(text).to.not.include('YWxhZGRpbjpvcGVu');
    expect(text).to.not.include('hush-5678');
  });
});
