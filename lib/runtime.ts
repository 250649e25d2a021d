/**
 * Which JavaScript runtime runs this process: Node, Bun or Deno (each of which also has the
 * `node:` modules we use, with the differences README's "Bun and Deno" section lists).
 */
export type RuntimeName = 'node' | 'bun' | 'deno';

/** The runtime this module runs on. */
export function runtimeName(): RuntimeName {
  const g = globalThis as { Bun?: unknown; Deno?: unknown };
  if (g.Bun !== undefined) return 'bun';
  if (g.Deno !== undefined) return 'deno';
  return 'node';
}
