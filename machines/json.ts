/**
 * The machines as JSON for Stately's editor: each machine's config as written in its
 * `.machine.ts` file (the object literal given to `setup(...).createMachine`), minus the
 * `context` factory. `createMachine(json)` rebuilds a machine with the same states and
 * transitions, and Stately's editor imports it. (Not `machine.toJSON()`: that is the resolved
 * definition, which `createMachine` does not accept back.) `npm run machines` writes
 * docs/machines/ with these functions.
 *
 * ```ts
 * import { machinesJSON } from 'mcp-actors/machines';
 * writeFileSync('session.json', JSON.stringify(machinesJSON().session, null, 2));
 * ```
 * @see https://stately.ai/docs/inspector
 */
import type { AnyStateMachine } from 'xstate';
import { machines } from './machine-table.js';

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * The machine's config as plain JSON. Throws when the config holds a function (an inline action,
 * guard or delay), since Stately could not draw it: name it in `setup` instead.
 */
export function machineConfigJSON(machine: AnyStateMachine): { [key: string]: Json } {
  const config = machine.config as Record<string, unknown>;
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(config)) {
    // `context` is usually a factory of the input; `schemas` is setup's type metadata.
    if (key === 'schemas' || (key === 'context' && typeof value === 'function')) continue;
    const json = toJson(value, `${machine.id}.${key}`);
    if (json !== undefined) out[key] = json;
  }
  return out;
}

function toJson(value: unknown, path: string): Json | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`${path}: ${value} cannot be written as JSON`);
    return value;
  }
  if (typeof value === 'function') {
    throw new Error(`${path} is an inline function: Stately cannot draw it. Name it in setup({ ... }) and refer to it by string.`);
  }
  if (Array.isArray(value)) return value.map((v, i) => toJson(v, `${path}[${i}]`) ?? null);
  if (typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const json = toJson(v, `${path}.${k}`);
      if (json !== undefined) out[k] = json;
    }
    return out;
  }
  throw new Error(`${path}: a ${typeof value} cannot be written as JSON`);
}

/** Pretty-printed JSON with a final newline. */
export function renderMachineJSON(machine: AnyStateMachine): string {
  return JSON.stringify(machineConfigJSON(machine), null, 2) + '\n';
}

/** Every machine as JSON, keyed by name (session, request, ...), or those of `all`. */
export function machinesJSON(all: Readonly<Record<string, AnyStateMachine>> = machines): Record<string, { [key: string]: Json }> {
  const out: Record<string, { [key: string]: Json }> = {};
  for (const [name, machine] of Object.entries(all)) out[name] = machineConfigJSON(machine);
  return out;
}
