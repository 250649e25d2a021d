// Seeded fuzzing of the codec and the session's receive step, in process (fast): every revision,
// every family of cases, plus random byte mutations of valid frames. On failure the seed is
// printed: `FUZZ_SEED=<seed>` reproduces it.
import { expect } from 'chai';
import { decodeText } from '../../lib/jsonrpc/codec.js';
import { SUPPORTED_REVISIONS, allows } from '../../lib/protocol/revisions.js';
import { parseFrame } from '../../streams/parse-json.js';
import { decodeFrame } from '../../streams/decode.js';
import { CaseGenerator, type FuzzCase } from './fuzz/cases.js';
import { Prng, fuzzSeed } from './fuzz/prng.js';

const CASES = Number(process.env.FUZZ_CODEC_CASES ?? 2_000);
const LIMIT = 4 * 1024 * 1024;

/** What the codec says about one case, against what the case expects. */
function check(c: FuzzCase, allowBatch: boolean): string | undefined {
  const text = Buffer.isBuffer(c.data) ? c.data.toString('utf8') : c.data;
  // The session's path (parse, then decode) and the codec's own must agree.
  const viaSession = decodeFrame(parseFrame(text, LIMIT), LIMIT, () => allowBatch);
  const direct = decodeText(text, { allowBatch });
  if (JSON.stringify(viaSession) !== JSON.stringify(direct)) return `${c.family}: the receive path and decodeText disagree`;
  const e = c.expect;
  switch (e.kind) {
    case 'none':
      if (direct.kind === 'request' || (direct.kind === 'invalid' && direct.respond)) return `${c.family}: would be answered (${direct.kind})`;
      return undefined;
    case 'batch':
      return direct.kind === 'batch' ? undefined : `${c.family}: expected a batch, got ${direct.kind}`;
    case 'answer':
      if (direct.kind === 'invalid') {
        if (!direct.respond) return `${c.family}: not answered`;
        if (e.id !== null && direct.id !== e.id) return `${c.family}: answered under id ${JSON.stringify(direct.id)}, expected ${JSON.stringify(e.id)}`;
        if (e.id === null && direct.id !== null) return `${c.family}: answered under id ${JSON.stringify(direct.id)}, expected null`;
        // The codec only knows envelope errors; what a handler answers is the servers' business.
        if (!e.codes.includes(direct.error.code) && !e.result) return `${c.family}: code ${direct.error.code}, expected ${e.codes.join(', ')}`;
        return undefined;
      }
      if (direct.kind === 'request') return e.result || e.codes.some((code) => code !== -32600 && code !== -32700) ? undefined : `${c.family}: accepted as a request`;
      return `${c.family}: classified ${direct.kind}`;
  }
}

describe('robustness: fuzzing the codec', () => {
  for (const revision of SUPPORTED_REVISIONS) {
    it(`[BASE-002] ${revision}: ${CASES} seeded cases classified as the spec says, and the receive path agrees`, () => {
      const seed = fuzzSeed();
      const gen = new CaseGenerator(new Prng(seed), revision);
      const failures: string[] = [];
      let n = 0;
      while (n < CASES) {
        for (const c of gen.next()) {
          n++;
          const f = check(c, allows(revision, 'batches'));
          if (f !== undefined && failures.length < 20) failures.push(f);
        }
      }
      expect(failures, `seed ${seed} (FUZZ_SEED=${seed} reproduces)`).to.deep.equal([]);
    });
  }

  it('random byte mutations of valid frames never throw and always classify', () => {
    const seed = fuzzSeed();
    const r = new Prng(seed);
    const valid = [
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{"x":[1,2,{"y":"z"}]}}}',
      '{"jsonrpc":"2.0","id":"s","result":{"content":[{"type":"text","text":"hi"}]}}',
      '[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}]',
    ];
    for (let i = 0; i < CASES; i++) {
      const bytes = Buffer.from(r.pick(valid));
      for (let k = r.int(1, 4); k > 0; k--) {
        const at = r.int(0, bytes.length - 1);
        switch (r.int(0, 2)) {
          case 0:
            bytes[at] = r.int(0, 255);
            break;
          case 1:
            bytes[at] = r.pick([0x7b, 0x7d, 0x5b, 0x5d, 0x22, 0x2c, 0x3a, 0x5c]);
            break;
          default:
            bytes[at] = r.pick([0xc3, 0xff, 0x80, 0xed]);
        }
      }
      const text = bytes.toString('utf8');
      const kinds = ['request', 'notification', 'response', 'invalid', 'batch'];
      const got = decodeText(text, { allowBatch: r.bool() });
      expect(kinds, `seed ${seed}, case ${i}: ${text}`).to.include(got.kind);
    }
  });
});
