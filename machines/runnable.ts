/**
 * Run an exported machine from its JSON in plain xstate, with stand-ins for every named guard,
 * action, actor and delay its manifest lists, so it can be simulated (in tests, or before
 * pasting into Stately) without the runtime. A guard reads a flag: `event.guards[name]`, else
 * `context.guards[name]`, else `overrides.guards[name]`, else false. An actor settles per
 * `overrides.actors[name]` ('resolve' | 'reject' | 'pending', default 'pending'). A delay is
 * `overrides.delays[name]` ms (default 1000). Actions do nothing unless overridden.
 *
 * @see https://stately.ai/docs/setup
 */
import { createMachine, fromPromise, type AnyStateMachine } from 'xstate';
import type { Json } from './json.js';
import { manifestFromJson } from './manifest.js';

export interface RunnableOverrides {
  /** Context to start with (the JSON has no context factory). Defaults to `{}`. */
  context?: Record<string, unknown>;
  guards?: Record<string, boolean>;
  actors?: Record<string, 'resolve' | 'reject' | 'pending'>;
  delays?: Record<string, number>;
  actions?: Record<string, () => void>;
}

type FlagBag = { guards?: Record<string, unknown> } | undefined;

/** Rebuild `json` as a machine with stand-in implementations (see the module comment). */
export function runnableFromJson(json: { [key: string]: Json }, overrides: RunnableOverrides = {}): AnyStateMachine {
  const manifest = manifestFromJson(json);
  const guards: Record<string, (a: { context: unknown; event: unknown }) => boolean> = {};
  for (const name of Object.keys(manifest.guards)) {
    guards[name] = ({ context, event }) => {
      const fromEvent = (event as FlagBag)?.guards?.[name];
      if (fromEvent !== undefined) return Boolean(fromEvent);
      const fromContext = (context as FlagBag)?.guards?.[name];
      if (fromContext !== undefined) return Boolean(fromContext);
      return overrides.guards?.[name] ?? false;
    };
  }
  const actions: Record<string, () => void> = {};
  for (const name of Object.keys(manifest.actions)) actions[name] = overrides.actions?.[name] ?? (() => undefined);
  const actors: Record<string, ReturnType<typeof fromPromise>> = {};
  for (const name of Object.keys(manifest.actors)) {
    const how = overrides.actors?.[name] ?? 'pending';
    actors[name] = fromPromise(() =>
      how === 'resolve' ? Promise.resolve(undefined)
        : how === 'reject' ? Promise.reject(new Error(`${name}: rejected by the script`))
          : new Promise<never>(() => undefined));
  }
  const delays: Record<string, number> = {};
  for (const name of Object.keys(manifest.delays)) delays[name] = overrides.delays?.[name] ?? 1000;
  const config = { ...json, context: overrides.context ?? {} };
  // The JSON is untyped by nature; createMachine accepts it at runtime as it accepted the source.
  return createMachine(config as never, { guards, actions, actors, delays } as never);
}
