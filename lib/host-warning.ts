/**
 * A warning to the operator: `process.emitWarning` where the host has it (Node, Bun, Deno; on
 * stderr, catchable with `process.on('warning')`), `console.warn` where it does not (Cloudflare
 * Workers without `nodejs_compat`), so a warning never becomes a ReferenceError.
 */
interface EmitWarning {
  (message: string, options: { type: string; code?: string }): void;
}

/** Warn with `message`, its `type` (a name like `McpServerWarning`) and an optional `code`. */
export function emitWarning(message: string, options: { type: string; code?: string }): void {
  const emit = (globalThis as { process?: { emitWarning?: EmitWarning } }).process?.emitWarning;
  if (typeof emit === 'function') emit.call((globalThis as { process?: unknown }).process, message, options);
  else console.warn(`(${options.type}${options.code === undefined ? '' : ` ${options.code}`}) ${message}`);
}
