/**
 * What a completion callback is given and gives back: the contract between a prompt's arguments
 * (prompts.ts registers a callback per argument) and `completion/complete` (completion.ts calls
 * it), here so that neither of those imports the other for it.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion
 */
import type { FeatureContext } from './feature-context.js';

/** Suggestions, possibly with the total number known and whether more exist. */
export interface CompletionValues {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** What the client has already filled in. */
export interface CompletionContext {
  /** Arguments resolved so far (`context.arguments` of the request; empty when absent). */
  arguments: { [name: string]: string };
}

/**
 * Suggests values for one argument from what has been typed (`value`). Return them best first.
 */
export type CompleteCallback = (
  value: string,
  context: CompletionContext,
  ctx: FeatureContext,
) => string[] | CompletionValues | Promise<string[] | CompletionValues>;
