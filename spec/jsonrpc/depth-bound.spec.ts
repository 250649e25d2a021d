/**
 * The text bound of the depth check (`textMayNestDeeperThan`): which frames' values need no walk.
 * It may only ever answer "cannot nest deeper" for text whose value is within the limit.
 */
import { expect } from 'chai';
import { DEFAULT_MAX_FRAME_DEPTH, MAX_COUNTED_ARRAYS, nestsDeeperThan, textMayNestDeeperThan } from '../../lib/jsonrpc/depth.js';
import { DeepFrame } from '../../streams/transport.js';
import { parseFrame } from '../../streams/parse-json.js';

/** The depth of a value, counted plainly (an object or array is level 1). */
function depthOf(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  let deepest = 0;
  for (const x of Object.values(v)) deepest = Math.max(deepest, depthOf(x));
  return 1 + deepest;
}

/** A small seeded generator (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The text of a chain of `depth` containers (arrays with probability `arrays`), written as
 * tightly as JSON allows or padded: whitespace, longer keys, sibling members, strings holding
 * brackets (which the bound counts too).
 */
function chainText(depth: number, arrays: number, next: () => number): string {
  // Half the frames tight (the bound's edge), half padded.
  const loose = next() < 0.5 ? 0 : 0.3;
  const pad = (): string => (next() < loose ? ' \n\t'.slice(0, 1 + Math.floor(next() * 3)) : '');
  const sibling = (): string => {
    const r = next();
    if (r < 1 - loose) return '';
    if (r < 0.75) return `${pad()}"[{["`;
    if (r < 0.9) return `${pad()}[]`;
    return `${pad()}{"\\u005b":"[[", "_meta":{}}`;
  };
  let text = next() < 0.5 ? '0' : '"x"';
  for (let level = depth; level >= 1; level--) {
    if (next() < arrays) {
      const extra = sibling();
      text = `[${pad()}${extra}${extra === '' ? '' : ','}${text}${pad()}]`;
    } else {
      const key = next() < 1 - loose ? '' : '[a'.repeat(1 + Math.floor(next() * 2));
      const extra = sibling();
      text = `{${pad()}${extra === '' ? '' : `"s":${extra},`}"${key}"${pad()}:${pad()}${text}${pad()}}`;
    }
  }
  return text;
}

describe('jsonrpc: the depth check knows short and shallow text from its length and its [', () => {
  it('a 2026-07-28 tools/call request, longer than twice the limit, is known shallow from its text (its value is not walked)', () => {
    const text = JSON.stringify({
      jsonrpc: '2.0',
      id: 12,
      method: 'tools/call',
      params: {
        name: 'echo',
        arguments: { text: 'hello, bench' },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 'bench-client', version: '1.0.0' },
        },
      },
    });
    expect(text.length).to.be.greaterThan(2 * DEFAULT_MAX_FRAME_DEPTH);
    expect(textMayNestDeeperThan(text, DEFAULT_MAX_FRAME_DEPTH)).to.equal(false);
  });

  it('text too short for the limit, or too long to bound, is decided by its length alone', () => {
    expect(textMayNestDeeperThan('['.repeat(128) + ']'.repeat(128), 128)).to.equal(false);
    expect(textMayNestDeeperThan(`{"a":"${'x'.repeat(700)}"}`, 128)).to.equal(true);
  });

  it('the tightest chains one past the limit are never taken for shallow, those at the limit are (up to 4 characters of slack)', () => {
    // Arrays, objects with empty keys and both, as tightly as JSON writes them.
    const chains = (depth: number): string[] => {
      const half = Math.floor(depth / 2);
      return [
        '['.repeat(depth) + ']'.repeat(depth),
        '{"":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1),
        '[{"":'.repeat(half) + (depth % 2 === 1 ? '[]' : '0') + '}]'.repeat(half),
        '{"":['.repeat(half) + (depth % 2 === 1 ? '{}' : '0') + ']}'.repeat(half),
      ];
    };
    for (const limit of [2, 3, 8, 16, 127, 128]) {
      for (const text of chains(limit + 1)) {
        expect(depthOf(JSON.parse(text)), text).to.equal(limit + 1);
        expect(textMayNestDeeperThan(text, limit), text).to.equal(true);
        expect(parseFrame(text, 1 << 20, limit), text).to.be.instanceOf(DeepFrame);
      }
      for (const chain of chains(limit)) {
        expect(depthOf(JSON.parse(chain)), chain).to.equal(limit);
        // The chain padded to the bound: still known shallow; one character more and it is walked.
        for (let slack = 0; slack <= 5; slack++) {
          const text = chain + ' '.repeat(slack);
          if (text.length <= 2 * limit) continue;
          const arrays = text.split('[').length - 1;
          const bound = text.length + 3 * arrays;
          expect(textMayNestDeeperThan(text, limit), `${text} (${bound})`).to.equal(bound > 5 * limit + 1 || arrays > MAX_COUNTED_ARRAYS);
          expect(parseFrame(text, 1 << 20, limit), text).to.deep.equal(JSON.parse(text));
        }
      }
    }
  });

  it('on 6,000 generated frames around the limit, a frame is refused as too deep exactly when its value nests deeper (the bound never spares a deep one)', () => {
    const next = random(26);
    let spared = 0;
    let deep = 0;
    for (let i = 0; i < 6_000; i++) {
      const limit = [2, 4, 8, 16, 32, 128][i % 6]!;
      const depth = Math.max(1, limit - 3 + Math.floor(next() * 6));
      const text = chainText(depth, next(), next);
      const value: unknown = JSON.parse(text);
      const actual = depthOf(value);
      const mayNest = textMayNestDeeperThan(text, limit);
      if (!mayNest) {
        expect(actual, text).to.be.at.most(limit);
        if (text.length > 2 * limit) spared++;
      }
      if (actual > limit) deep++;
      expect(nestsDeeperThan(value, limit), text).to.equal(actual > limit);
      const parsed = parseFrame(text, 1 << 20, limit);
      if (actual > limit) expect(parsed, text).to.be.instanceOf(DeepFrame);
      else expect(parsed, text).to.deep.equal(value);
    }
    // The generator reaches both sides: frames past the limit, and longer ones the bound spares.
    expect(deep).to.be.greaterThan(1_000);
    expect(spared).to.be.greaterThan(500);
  });
});
