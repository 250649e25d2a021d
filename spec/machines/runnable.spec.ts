import { expect } from 'chai';
import { createActor, createMachine, type InspectionEvent, type AnyMachineSnapshot, type AnyStateMachine, type AnyStateNode } from 'xstate';
import { machines, machinesJSON, machineManifest, runnableFromJson, type ManifestKind } from '../../machines/index.js';

/** Every guard/action/actor/delay name the real machine definition uses, read from its resolved nodes. */
function namesInDefinition(machine: AnyStateMachine): Record<ManifestKind, string[]> {
  const out: Record<ManifestKind, Set<string>> = { guards: new Set(), actions: new Set(), actors: new Set(), delays: new Set() };
  const nameOf = (x: unknown): string | undefined => (typeof x === 'string' ? x : typeof x === 'object' && x !== null && typeof (x as { type?: unknown }).type === 'string' ? (x as { type: string }).type : undefined);
  const add = (kind: ManifestKind, x: unknown): void => { const n = nameOf(x); if (n) out[kind].add(n); };
  const visit = (node: AnyStateNode): void => {
    for (const a of [...node.entry, ...node.exit]) add('actions', a);
    for (const inv of node.invoke) add('actors', inv.src);
    for (const list of [...node.transitions.values(), node.always ?? []]) {
      for (const t of list) { if (t.guard) add('guards', t.guard); for (const a of t.actions) add('actions', a); }
    }
    for (const d of node.after) if (typeof d.delay === 'string') add('delays', d.delay);
    for (const child of Object.values(node.states)) visit(child as AnyStateNode);
  };
  visit(machine.root);
  return { guards: [...out.guards].sort(), actions: [...out.actions].sort(), actors: [...out.actors].sort(), delays: [...out.delays].sort() };
}

const ids = (snap: AnyMachineSnapshot): string[] => (snap as unknown as { _nodes: AnyStateNode[] })._nodes.map((n) => n.id);

/**
 * Breadth-first over the stand-in machine: every event type, with each guard flag alone, from each
 * guard-flag context. A state passed through in a microstep (left at once by `always`) counts as
 * reached: the inspection's microsteps name the transitions taken, and their sources.
 */
function walk(machine: AnyStateMachine, guardNames: string[]): Set<string> {
  const reached = new Set<string>();
  const inspect = (ev: InspectionEvent): void => {
    if (ev.type !== '@xstate.microstep') return;
    for (const t of (ev as unknown as { _transitions: Array<{ source: AnyStateNode }> })._transitions) reached.add(t.source.id);
    for (const id of ids(ev.snapshot as AnyMachineSnapshot)) reached.add(id);
  };
  const eventTypes = [...new Set(machine.events)];
  const flagSets: Array<Record<string, boolean>> = [{}, ...guardNames.map((g) => ({ [g]: true }))];
  for (const ctxFlags of flagSets) {
    const m = createMachine({ ...(machine.config as object), context: { guards: ctxFlags } } as never, machine.implementations as never);
    const first = createActor(m, { inspect });
    first.start();
    const seen = new Set<string>();
    const queue: unknown[] = [first.getPersistedSnapshot()];
    first.stop();
    while (queue.length) {
      const persisted = queue.shift()!;
      const snap = m.resolveState(persisted as never) as AnyMachineSnapshot;
      const key = JSON.stringify(snap.value) + snap.status;
      if (seen.has(key)) continue;
      seen.add(key);
      for (const id of ids(snap)) reached.add(id);
      if (snap.status !== 'active') continue;
      for (const type of eventTypes) {
        for (const flags of flagSets) {
          const actor = createActor(m, { snapshot: persisted as never, inspect });
          actor.start();
          actor.send({ type, guards: flags } as never);
          queue.push(actor.getPersistedSnapshot());
          actor.stop();
        }
      }
    }
  }
  return reached;
}

describe('machines: run from their exported JSON with stand-ins', () => {
  const all = machinesJSON();
  for (const [name, machine] of Object.entries(machines) as Array<[string, AnyStateMachine]>) {
    it(`${name}: the manifest lists exactly the guards, actions, actors and delays the machine uses`, () => {
      const manifest = machineManifest(machine);
      const listed = Object.fromEntries((Object.keys(manifest) as ManifestKind[]).map((k) => [k, Object.keys(manifest[k]).sort()]));
      expect(listed).to.deep.equal(namesInDefinition(machine));
      for (const kind of Object.keys(manifest) as ManifestKind[]) for (const meaning of Object.values(manifest[kind])) expect(meaning).to.match(/ used at /);
    });
    it(`${name}: started from its JSON it does not stop in an error state (plain createMachine(json) did for three)`, () => {
      const actor = createActor(runnableFromJson(all[name]!));
      actor.start();
      expect(actor.getSnapshot().status).to.not.equal('error');
      actor.stop();
    });
    it(`${name}: every state of the real machine is reached from its JSON`, () => {
      const runnable = runnableFromJson(all[name]!);
      const reached = walk(runnable, Object.keys(machineManifest(machine).guards));
      const wanted = [...(machine as unknown as { idMap: Map<string, unknown> }).idMap.keys()];
      const missing = wanted.filter((id) => !reached.has(id));
      expect(missing, `unreached: ${missing.join(', ')}`).to.deep.equal([]);
    });
  }
  it('session from JSON takes TRANSPORT_OPEN (client) without a missing guard', () => {
    const actor = createActor(runnableFromJson(all.session!, { guards: { isClient: true } }));
    actor.start();
    actor.send({ type: 'TRANSPORT_OPEN' });
    expect(actor.getSnapshot().status).to.equal('active');
    expect(actor.getSnapshot().value).to.equal('initializing');
  });
});

describe('machines: the three that stopped at once from plain JSON start like the real ones', () => {
  const all = machinesJSON();
  it('clientElicitation with a form allowed presents the form', () => {
    const actor = createActor(runnableFromJson(all.clientElicitation!, { guards: { formAllowed: true } }));
    actor.start();
    expect(actor.getSnapshot().status).to.equal('active');
    expect(JSON.stringify(actor.getSnapshot().value)).to.contain('form');
  });
  it('versionNegotiation and oauthClient start active', () => {
    for (const name of ['versionNegotiation', 'oauthClient'] as const) {
      const actor = createActor(runnableFromJson(all[name]!));
      actor.start();
      expect(actor.getSnapshot().status, name).to.equal('active');
    }
  });
});
