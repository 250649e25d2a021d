/**
 * Picking a model for a sampling request from the server's preferences: hints first (each a
 * substring of a model name, in the server's order of preference), then the cost, speed and
 * intelligence priorities weighing the models' own ratings.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#model-preferences
 */
import type { ModelPreferences } from '../protocol/schema/sampling.js';

/** A model the client can use, rated 0 (worst) to 1 (best) on each axis. */
export interface AvailableModel {
  name: string;
  /** 1 = cheapest. */
  cost?: number;
  /** 1 = fastest. */
  speed?: number;
  /** 1 = most capable. */
  intelligence?: number;
}

/**
 * The model to use: the first hint that names (as a substring, case-insensitively) one of the
 * available models wins, the best-rated by the priorities among those it names; with no hint
 * matching, the best-rated of all. Undefined only when `available` is empty.
 */
export function selectModel<M extends AvailableModel>(preferences: ModelPreferences | undefined, available: readonly M[]): M | undefined {
  if (available.length === 0) return undefined;
  const weight = (m: AvailableModel) =>
    (preferences?.costPriority ?? 0) * (m.cost ?? 0.5) + (preferences?.speedPriority ?? 0) * (m.speed ?? 0.5) + (preferences?.intelligencePriority ?? 0) * (m.intelligence ?? 0.5);
  const best = (models: readonly M[]) => models.reduce((a, b) => (weight(b) > weight(a) ? b : a));
  for (const hint of preferences?.hints ?? []) {
    const needle = typeof hint?.name === 'string' ? hint.name.toLowerCase() : '';
    if (needle === '') continue;
    const named = available.filter((m) => m.name.toLowerCase().includes(needle));
    if (named.length) return best(named);
  }
  return best(available);
}
