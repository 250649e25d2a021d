/**
 * Run a callback once the current turn of the event loop is over (every pending microtask run):
 * `setImmediate` where the host has it (Node, Bun, Deno), a zero timeout where it does not
 * (Cloudflare Workers without `nodejs_compat`).
 */
const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;

/** Calls `callback` after the current turn. */
export function nextTurn(callback: () => void): void {
  if (immediate !== undefined) immediate(callback);
  else setTimeout(callback, 0);
}
