/**
 * Where the current listing of each list (tools, prompts, resources) of a server is read, for
 * the per-caller views of 2026-07-28 listen streams. A leaf (it imports nothing of the server),
 * so that the request core can reach it without an import cycle.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
 */

/** Which list: its capability key. */
export type ListKind = 'tools' | 'prompts' | 'resources';

/**
 * What a caller can see of a list now, given its predicate over entry names (tools and prompts
 * by name; resources by uri, templates by uri template). Entries are immutable, so two listings
 * compare by reference: an unchanged entry is the same object.
 */
export type VisibleListing = (sees: (name: string) => boolean) => readonly unknown[];

const listings = new WeakMap<object, Map<ListKind, VisibleListing>>();

/** Say where the current listing of `kind` on `server` is read. */
export function provideListing(server: object, kind: ListKind, listing: VisibleListing): void {
  let byKind = listings.get(server);
  if (byKind === undefined) listings.set(server, (byKind = new Map()));
  byKind.set(kind, listing);
}

/** The listing of `kind` on `server`, if a feature provides it. */
export function listingOf(server: object, kind: ListKind): VisibleListing | undefined {
  return listings.get(server)?.get(kind);
}

/** Whether two listings hold the same entries in the same order. */
export function sameEntries(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((e, i) => e === b[i]);
}
