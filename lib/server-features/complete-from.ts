/**
 * Ranked completion from a list of candidates, for completion callbacks: the best matches
 * first (exact, then prefix, then word prefix, then substring, then, with `fuzzy`, the
 * candidates that hold the typed characters in order), ties broken by closeness and by the
 * candidates' own order.
 *
 * ```ts
 * mcp.registerPrompt('review', { arguments: [{ name: 'language', complete: completeFrom(LANGUAGES, { fuzzy: true }) }] }, ...)
 * ```
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion#implementation-considerations
 */
import type { CompletionValues } from './complete-callback.js';

export interface CompleteFromOptions {
  /** Also match candidates holding the typed characters in order (`rsc` → `resources`). Default false. */
  fuzzy?: boolean;
  /** Match case exactly. Default false. */
  caseSensitive?: boolean;
  /** At most this many values (the protocol's cap is 100). Default 100. */
  limit?: number;
}

/** How well a candidate matches: lower is better; undefined is no match. */
function score(candidate: string, typed: string, fuzzy: boolean): number | undefined {
  if (typed === '') return 0;
  if (candidate === typed) return 0;
  if (candidate.startsWith(typed)) return 1;
  const at = candidate.indexOf(typed);
  if (at > 0) {
    // A match at the start of a word (after a separator) beats one inside a word.
    for (let i = at; i > 0; i = candidate.indexOf(typed, i + 1)) {
      if (/[^\p{L}\p{N}]/u.test(candidate[i - 1]!)) return 2;
    }
    return 3;
  }
  if (!fuzzy) return undefined;
  // In-order subsequence; the tighter the span it covers, the better.
  let from = 0;
  let first = -1;
  for (const ch of typed) {
    const i = candidate.indexOf(ch, from);
    if (i < 0) return undefined;
    if (first < 0) first = i;
    from = i + ch.length;
  }
  const span = from - first;
  return 4 + (span - typed.length) / (candidate.length + 1);
}

/**
 * The candidates matching `typed`, best first (see the module's ranking). Empty input matches
 * everything, in the candidates' order.
 */
export function rankCompletions(candidates: Iterable<string>, typed: string, options: CompleteFromOptions = {}): string[] {
  const fold = options.caseSensitive ? (s: string) => s : (s: string) => s.toLowerCase();
  const t = fold(typed);
  const scored: { value: string; score: number; index: number }[] = [];
  let index = 0;
  for (const value of candidates) {
    const s = score(fold(value), t, options.fuzzy === true);
    if (s !== undefined) scored.push({ value, score: s, index });
    index++;
  }
  scored.sort((a, b) => a.score - b.score || a.index - b.index);
  return scored.map((x) => x.value);
}

/**
 * A completion callback answering from `candidates` (a list, or a function of what is already
 * filled in), ranked by {@link rankCompletions}; `total` counts every match and `hasMore` says
 * when some were cut.
 */
export function completeFrom(
  candidates: Iterable<string> | ((context: { arguments: Record<string, string> }) => Iterable<string> | Promise<Iterable<string>>),
  options: CompleteFromOptions = {},
): (value: string, context: { arguments: Record<string, string> }) => Promise<CompletionValues> {
  const limit = Math.min(options.limit ?? 100, 100);
  if (!(limit >= 1)) throw new TypeError(`completeFrom: limit must be at least 1; got ${options.limit}`);
  return async (value, context) => {
    const source = typeof candidates === 'function' ? await candidates(context) : candidates;
    const ranked = rankCompletions(source, value, options);
    return { values: ranked.slice(0, limit), total: ranked.length, hasMore: ranked.length > limit };
  };
}
