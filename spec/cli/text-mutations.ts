// Random small edits of texts (frames), for the specs that check a recorder's look at a line
// against JSON.parse and the redaction: seeded, so a failure can be replayed.
import { Prng } from '../robustness/fuzz/prng.js';

/** A seeded generator of numbers in [0, 1). */
export function random(seed: number): () => number {
  const prng = new Prng(seed);
  return () => prng.next();
}

/** One of `texts` with one to three characters inserted, deleted or replaced (from `alphabet`). */
export function mutated(rnd: () => number, texts: readonly string[], alphabet: string): string {
  let s = texts[Math.floor(rnd() * texts.length)]!;
  const edits = 1 + Math.floor(rnd() * 3);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(rnd() * (s.length + 1));
    const ch = alphabet[Math.floor(rnd() * alphabet.length)]!;
    const op = rnd();
    s = op < 0.4 ? s.slice(0, at) + ch + s.slice(at) : op < 0.8 ? s.slice(0, at) + s.slice(at + 1) : s.slice(0, at) + ch + s.slice(at + 1);
  }
  return s;
}
