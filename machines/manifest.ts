/**
 * The manifest of an exported machine: every guard, action, actor and delay its config names,
 * each with a one-line meaning derived from where the config uses it (so it cannot drift from
 * the machine). These are the names a user must `.provide()` to run the machine from its JSON
 * (or `runnableFromJson` stands them in, see ./runnable.ts).
 *
 * @see https://stately.ai/docs/setup
 */
import type { AnyStateMachine } from 'xstate';
import { machines } from './machine-table.js';
import { machineConfigJSON, type Json } from './json.js';

export type ManifestKind = 'guards' | 'actions' | 'actors' | 'delays';

/** Each name the machine uses, by kind, mapped to a one-line meaning (where it is used). */
export type MachineManifest = Record<ManifestKind, Record<string, string>>;

type Obj = { [key: string]: Json };
const isObj = (v: Json | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const asList = (v: Json | undefined): Json[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const nameOf = (v: Json): string | undefined => (typeof v === 'string' ? v : isObj(v) && typeof v.type === 'string' ? v.type : undefined);

/** Collect every named guard/action/actor/delay of a machine config as JSON. */
export function manifestFromJson(json: Obj): MachineManifest {
  const uses: Record<ManifestKind, Map<string, Set<string>>> = {
    guards: new Map(), actions: new Map(), actors: new Map(), delays: new Map(),
  };
  const note = (kind: ManifestKind, name: string | undefined, where: string): void => {
    if (!name) return;
    const set = uses[kind].get(name) ?? new Set<string>();
    set.add(where);
    uses[kind].set(name, set);
  };
  const actions = (v: Json | undefined, where: string): void => {
    for (const a of asList(v)) note('actions', nameOf(a), where);
  };
  const transitions = (v: Json | undefined, where: string): void => {
    for (const t of asList(v)) {
      if (!isObj(t)) continue;
      if (t.guard !== undefined) note('guards', nameOf(t.guard), where);
      actions(t.actions, where);
    }
  };
  const node = (n: Obj, path: string): void => {
    actions(n.entry, `entry of ${path}`);
    actions(n.exit, `exit of ${path}`);
    if (isObj(n.on)) for (const [ev, t] of Object.entries(n.on)) transitions(t, `${ev} in ${path}`);
    transitions(n.always, `always in ${path}`);
    if (isObj(n.after)) {
      for (const [delay, t] of Object.entries(n.after)) {
        // A numeric key is a literal delay in ms; only named delays need an implementation.
        if (!/^\d+$/.test(delay)) note('delays', delay, `after in ${path}`);
        transitions(t, `after ${delay} in ${path}`);
      }
    }
    for (const inv of asList(n.invoke)) {
      if (!isObj(inv)) continue;
      note('actors', nameOf(inv.src as Json), `invoked in ${path}`);
      transitions(inv.onDone, `done of ${String(inv.src)} in ${path}`);
      transitions(inv.onError, `error of ${String(inv.src)} in ${path}`);
      transitions(inv.onSnapshot, `snapshot of ${String(inv.src)} in ${path}`);
    }
    if (isObj(n.states)) for (const [key, child] of Object.entries(n.states)) if (isObj(child)) node(child, path === '(root)' ? key : `${path}.${key}`);
  };
  node(json, '(root)');
  const out = { guards: {}, actions: {}, actors: {}, delays: {} } as MachineManifest;
  for (const kind of Object.keys(uses) as ManifestKind[]) {
    for (const name of [...uses[kind].keys()].sort()) {
      const where = [...uses[kind].get(name)!].sort();
      const head = where.slice(0, 3).join('; ') + (where.length > 3 ? `; and ${where.length - 3} more` : '');
      out[kind][name] = `${kind.slice(0, -1)} used at ${head}`;
    }
  }
  return out;
}

/** The manifest of one machine (from its exported JSON, the same a user gets). */
export function machineManifest(machine: AnyStateMachine): MachineManifest {
  return manifestFromJson(machineConfigJSON(machine));
}

/** Every machine's manifest, keyed by name. */
export function machinesManifest(all: Readonly<Record<string, AnyStateMachine>> = machines): Record<string, MachineManifest> {
  const out: Record<string, MachineManifest> = {};
  for (const [name, machine] of Object.entries(all)) out[name] = machineManifest(machine);
  return out;
}

/** Pretty-printed manifest with a final newline, as written to docs/machines/<name>.manifest.json. */
export function renderManifest(machine: AnyStateMachine): string {
  return JSON.stringify(machineManifest(machine), null, 2) + '\n';
}
