// The recorder's JSON check (lib/cli/json-check.ts) decides whether a frame's line goes into the
// journal as it came: a "yes" for anything JSON.parse refuses would make the journal unreadable.
// Checked against JSON.parse itself on hand-picked cases and on many random mutations of frames.
import { expect } from 'chai';
import { mutated, random } from './text-mutations.js';
import { isJsonObjectText } from '../../lib/cli/json-check.js';

const parsesToObject = (s: string): boolean => {
  try {
    const v: unknown = JSON.parse(s);
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  } catch {
    return false;
  }
};


describe('record: the JSON check that lets a frame be journaled as it came', () => {
  it('agrees with JSON.parse on the edges of the grammar', () => {
    const cases = [
      '{}', ' { } ', '{"a":1}', '{"a":[1,2,{"b":null}],"c":true,"d":false}', '{"a":-0.5e+10}', '{"a":0}', '{"a":1E5}',
      '{"s":"\\u00e9\\n\\t\\"\\\\\\/"}', '{"s":"é✓日🎉"}', '{"s":"\\ud83c"}', '{"a":[]}', '{"a":[[]]}', '{"a":{}}',
      '', '{', '}', '[]', '[{}]', '"x"', '1', 'null', '{"a":1}x', '{"a":1,}', '{"a":[1,]}', '{,}', '{"a" 1}', '{a:1}',
      "{'a':1}", '{"a":01}', '{"a":1.}', '{"a":.5}', '{"a":-}', '{"a":1e}', '{"a":+1}', '{"a":NaN}', '{"a":tru}',
      '{"a":"\\x"}', '{"a":"\\u12"}', '{"a":"\\u12G4"}', '{"a":"line\nbreak"}', '{"a":"tab\there"}', '\ufeff{}',
      '{"a":1}{"b":2}', '{"a":[1 2]}', '{"a":1 "b":2}', '{"a":"unterminated}', '{"a":{"b":1}', '{"a":1}}', '{"a":]}',
      '{"a":1e+}', '{"a":-01}', '{"a":1.5e-3}', '{"a":"\\u0000"}', '{"\\"":1}', '{"a":[{"b":[{"c":[]}]}]}',
    ];
    for (const c of cases) expect(isJsonObjectText(c), JSON.stringify(c)).to.equal(parsesToObject(c));
  });

  it('agrees with JSON.parse on 50,000 random mutations of real frames', () => {
    const rnd = random(20261126);
    const frames = [
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'héllo "there"\n', n: -1.25e-3, ok: true, none: null, list: [1, [2, {}]] } } },
      { jsonrpc: '2.0', id: 'a-1', result: { content: [{ type: 'text', text: '日本 🎉 \\ / \u2028' }], isError: false } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 3, progress: 0.5, total: 10 } },
    ].map((f) => JSON.stringify(f));
    const alphabet = '{}[]":,.-+eE0123456789 \\\n\tutrfalsn\u00e9\ud83c';
    let yes = 0;
    for (let k = 0; k < 50000; k++) {
      const s = mutated(rnd, frames, alphabet);
      const expected = parsesToObject(s);
      if (expected) yes++;
      if (isJsonObjectText(s) !== expected) expect.fail(`disagrees with JSON.parse (which says ${expected}) on ${JSON.stringify(s)}`);
    }
    expect(yes).to.be.greaterThan(1000); // the mutations also produce valid texts, so both answers are exercised
  });

  it('says no (and the recorder parses instead) beyond the depth it tracks', () => {
    const deep = '{"a":' + '['.repeat(600) + ']'.repeat(600) + '}';
    expect(parsesToObject(deep)).to.equal(true);
    expect(isJsonObjectText(deep)).to.equal(false);
    const within = '{"a":' + '['.repeat(500) + ']'.repeat(500) + '}';
    expect(isJsonObjectText(within)).to.equal(true);
  });
});
