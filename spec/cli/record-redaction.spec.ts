// Issue 32 item 7f: `mcp-actors record` hides secrets inside string arguments that hold JSON (a
// tool argument `"{\"password\":\"…\"}"`), re-encoding the string with the secret replaced, as it
// hides secret-named fields; and a key spelled with a \u escape does not slip past its first look.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, runInProcess, TERMINAL_SERVER_CMD } from './helpers.js';
import { Redactor } from '../../lib/shared/redactor.js';
import { tsArgs } from '../helpers/ts-child.js';

const q = (words: string[]) => words.map((w) => JSON.stringify(w)).join(' ');
const recordCmd = (out: string) => q([process.execPath, ...tsArgs(CLI), 'record', '--out', out, '--', ...TERMINAL_SERVER_CMD]);
const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));

describe('mcp-actors record: secrets inside strings that hold JSON (issue 32, 7f)', function () {
  this.timeout(30000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mcp-rec-json-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a call whose string argument holds JSON with a password and a bearer token: the recording holds neither', async () => {
    const out = join(dir, 's.jsonl');
    const config = JSON.stringify({ user: 'ann', password: 'hunter2-in-json', headers: { Authorization: 'Bearer tok-abcdefghijkl' } });
    const nested = JSON.stringify({ outer: JSON.stringify({ api_key: 'sk-nested-123456' }) });
    // A value that parses as a JSON string is passed as that string: the server gets text holding JSON.
    const run = await runInProcess(['call', 'echo', `config=${JSON.stringify(config)}`, `nested=${JSON.stringify(nested)}`, 'city=Paris', '--era', 'legacy', '--stdio', recordCmd(out)]);
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.include('got city,config,nested');
    const text = readFileSync(out, 'utf8');
    for (const secret of ['hunter2-in-json', 'tok-abcdefghijkl', 'sk-nested-123456']) expect(text).to.not.include(secret);
    const args = lines(out).find((e) => e.frame?.method === 'tools/call').frame.params.arguments;
    expect(JSON.parse(args.config)).to.deep.equal({ user: 'ann', password: '[REDACTED]', headers: { Authorization: '[REDACTED]' } });
    expect(JSON.parse(JSON.parse(args.nested).outer)).to.deep.equal({ api_key: '[REDACTED]' });
    expect(args.city).to.equal('Paris');
  });

  it('the first look at a line (written as it came when nothing may be secret) sees a key spelled with \\u escapes', () => {
    const r = new Redactor();
    expect(r.mayHoldSecrets('{"pass\\u0077ord":"x"}')).to.equal(true);
    expect(r.mayHoldSecrets('{"a":"{\\"pass\\\\u0077ord\\":1}"}')).to.equal(true);
    expect(r.mayHoldSecrets('{"text":"caf\\u00e9"}')).to.equal(false);
  });
});
