/**
 * The call shapes of the official SDK's client, accepted beside ours so code moves over with few
 * edits: `callTool({ name, arguments })`, `getPrompt({ name, arguments })`, `readResource({ uri })`,
 * `listTools({ cursor })`, and list results that destructure as `{ tools, nextCursor }`.
 * (docs/migrating-from-sdk.md maps every call.)
 */
import type { RequestOptions } from '../session/request-registry.js';

/**
 * The items of a list method, all pages (or the one page asked for with `{ cursor }`): an array,
 * so `for (const tool of await client.listTools())` works, that also carries the items under the
 * result's key and `nextCursor` (undefined once every page was fetched), so the SDK's
 * `const { tools, nextCursor } = await client.listTools()` works too. The two extra properties
 * are not enumerable: the value prints, spreads and compares as the plain array.
 */
export type Listing<T, K extends string> = T[] & { readonly [key in K]: T[] } & { readonly nextCursor?: string | undefined };

/** Make `items` a {@link Listing}. */
export function listing<T, K extends string>(items: T[], key: K, nextCursor?: string): Listing<T, K> {
  Object.defineProperty(items, key, { value: items, enumerable: false });
  Object.defineProperty(items, 'nextCursor', { value: nextCursor, enumerable: false });
  return items as Listing<T, K>;
}

/** The SDK's list params: one page, from `cursor`. */
export interface ListParams {
  cursor?: string | undefined;
}

/** True when a list method's first argument is the SDK's params (`{ cursor }`) rather than our options. */
export function isListParams(x: unknown): x is ListParams {
  return typeof x === 'object' && x !== null && 'cursor' in x;
}

/** The SDK's `callTool` params. */
export interface CallToolParams {
  name: string;
  arguments?: Record<string, unknown> | undefined;
}

/**
 * The SDK passes a result schema second (`callTool(params, resultSchema, options)`); ours are the
 * options. A zod/Standard Schema or `undefined` second argument means the options are third.
 */
export function sdkOptions<O extends RequestOptions>(second: unknown, third: O | undefined): O | undefined {
  if (second === undefined) return third;
  if (typeof second === 'object' && second !== null && ('~standard' in second || 'safeParse' in second || 'parse' in second)) return third;
  return second as O;
}
