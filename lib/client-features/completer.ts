/**
 * Completion as a text field needs it: requests debounced while the user types (only the last
 * value of a burst is asked), results cached by reference, argument, value and context, and
 * whatever the server answers (nothing, a malformed result, an error, a partial list) turned
 * into a usable suggestion list.
 *
 * ```ts
 * const language = client.completer({ type: 'ref/prompt', name: 'code_review' }, 'language');
 * input.oninput = async () => { const s = await language.suggest(input.value); if (s) show(s.values); };
 * ```
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion#implementation-considerations
 */
import type { Clock } from '../clock.js';
import type { CompleteResult, PromptReference, ResourceTemplateReference } from '../protocol/schema/completion.js';

export interface CompleterOptions {
  /** Quiet time in ms before a request goes out; a newer value within it replaces the older. Default 150. */
  debounceMs?: number;
  /** How long a result stays usable, in ms. Default 60 000; 0 turns the cache off. */
  cacheTtlMs?: number;
  /** At most this many cached results (the oldest go first). Default 100. */
  cacheSize?: number;
}

/** Suggestions for one value, always well-formed. */
export interface CompletionSuggestions {
  /** The suggested values (strings only, at most 100). */
  values: string[];
  /** How many matches the server knows of (at least `values.length`). */
  total: number;
  /** The server has more than it sent: keep typing to narrow. */
  hasMore: boolean;
  /** Served from the cache, without a request. */
  cached: boolean;
  /** Why there are no suggestions when the request failed (the server's error); the UI just shows none. */
  error?: Error;
}

/** What the completer needs from its client. */
export interface CompleterDeps {
  clock: Clock;
  /** Whether the server declared `completions`. */
  supported(): boolean;
  complete(ref: PromptReference | ResourceTemplateReference, argument: { name: string; value: string }, context: { arguments: Record<string, string> } | undefined): Promise<CompleteResult>;
}

/**
 * The suggestions in a server's result, whatever its shape: missing `completion` or `values`
 * is none; values that are not strings are dropped; `total` and `hasMore` made consistent.
 */
export function readCompletion(result: unknown): Omit<CompletionSuggestions, 'cached'> {
  const c = (result as { completion?: unknown } | null | undefined)?.completion as { values?: unknown; total?: unknown; hasMore?: unknown } | undefined;
  const raw = Array.isArray(c?.values) ? (c.values as unknown[]) : [];
  const values = raw.filter((v): v is string => typeof v === 'string').slice(0, 100);
  const total = typeof c?.total === 'number' && Number.isFinite(c.total) && c.total >= values.length ? c.total : values.length;
  const hasMore = c?.hasMore === true || total > values.length || raw.length > values.length;
  return { values, total, hasMore };
}

interface Pending {
  value: string;
  context: { arguments: Record<string, string> } | undefined;
  resolve: (s: CompletionSuggestions | undefined) => void;
  timer: unknown;
}

let completerIds = 0;

/**
 * Debounced, cached completion of one argument of one prompt or resource template. Get one
 * from `client.completer(ref, argument)`.
 */
export class Completer {
  private readonly debounceMs: number;
  private readonly ttl: number;
  private readonly size: number;
  private readonly cache = new Map<string, { at: number; result: Omit<CompletionSuggestions, 'cached'> }>();
  private readonly timerName = `completer:${++completerIds}`;
  private pending: Pending | undefined;

  constructor(
    private readonly deps: CompleterDeps,
    readonly ref: PromptReference | ResourceTemplateReference,
    readonly argument: string,
    options: CompleterOptions = {},
  ) {
    this.debounceMs = options.debounceMs ?? 150;
    this.ttl = options.cacheTtlMs ?? 60_000;
    this.size = options.cacheSize ?? 100;
    if (!(this.debounceMs >= 0) || !(this.ttl >= 0) || !(this.size >= 0)) throw new TypeError('completer: debounceMs, cacheTtlMs and cacheSize must be 0 or more');
  }

  /**
   * Suggestions for `value` (with the other arguments already chosen in `context`). A cached
   * result answers at once; otherwise the request waits `debounceMs`, and resolves undefined if
   * a newer `suggest` replaced it meanwhile (only the latest value is asked for). Never rejects.
   */
  suggest(value: string, context?: { arguments: Record<string, string> }): Promise<CompletionSuggestions | undefined> {
    const key = this.keyOf(value, context);
    const hit = this.cache.get(key);
    if (hit && this.deps.clock.now() - hit.at < this.ttl) {
      this.supersede();
      return Promise.resolve({ ...hit.result, values: [...hit.result.values], cached: true });
    }
    if (hit) this.cache.delete(key);
    this.supersede();
    if (!this.deps.supported()) return Promise.resolve({ values: [], total: 0, hasMore: false, cached: false });
    return new Promise((resolve) => {
      const pending: Pending = { value, context, resolve, timer: undefined };
      pending.timer = this.deps.clock.setTimeout(() => this.fire(pending, key), this.debounceMs, this.timerName);
      this.pending = pending;
    });
  }

  /** Forget cached results (e.g. when the server's prompts changed). */
  clear(): void {
    this.cache.clear();
  }

  /** Drop a waiting request (it resolves undefined). */
  cancel(): void {
    this.supersede();
  }

  private supersede(): void {
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    this.deps.clock.clearTimeout(p.timer as never);
    p.resolve(undefined);
  }

  private fire(p: Pending, key: string): void {
    if (this.pending !== p) return;
    this.pending = undefined;
    this.deps.complete(this.ref, { name: this.argument, value: p.value }, p.context).then(
      (result) => {
        const read = readCompletion(result);
        this.remember(key, read);
        p.resolve({ ...read, cached: false });
      },
      (e: unknown) => p.resolve({ values: [], total: 0, hasMore: false, cached: false, error: e instanceof Error ? e : new Error(String(e)) }),
    );
  }

  private remember(key: string, result: Omit<CompletionSuggestions, 'cached'>): void {
    if (this.ttl === 0 || this.size === 0) return;
    this.cache.delete(key);
    this.cache.set(key, { at: this.deps.clock.now(), result });
    while (this.cache.size > this.size) this.cache.delete(this.cache.keys().next().value!);
  }

  private keyOf(value: string, context: { arguments: Record<string, string> } | undefined): string {
    const args = context?.arguments ?? {};
    const sorted = Object.keys(args)
      .sort()
      .map((k) => [k, args[k]]);
    return JSON.stringify([value, sorted]);
  }
}
