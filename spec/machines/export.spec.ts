import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMachine, type AnyStateMachine } from 'xstate';
import * as entry from '../../machines/index.js';
import { machines } from '../../machines/index.js';
import { OUT_DIR, machineConfigJSON, outdated, renderAll, renderMachineJSON } from '../../scripts/export-machines.js';

interface DefNode {
  id: string;
  type: string;
  initial: { target: string[] };
  states: Record<string, DefNode>;
  transitions: { eventType: string; target?: string[]; guard?: unknown; actions: unknown[]; delay?: unknown; reenter?: boolean }[];
  entry: unknown[];
  exit: unknown[];
}

const nameOf = (x: unknown): string => (typeof x === 'string' ? x : ((x as { type?: string })?.type ?? JSON.stringify(x)));

/** One line per state node and per transition: what Stately draws and what the runtime relies on. */
function structure(machine: AnyStateMachine): string[] {
  const root = JSON.parse(JSON.stringify(machine.toJSON())) as DefNode;
  const lines: string[] = [];
  const walk = (node: DefNode) => {
    lines.push(
      `state ${node.id} ${node.type} initial=${node.initial.target.join(',')} ` +
        `entry=${node.entry.map(nameOf).join(',')} exit=${node.exit.map(nameOf).join(',')}`,
    );
    for (const t of node.transitions) {
      lines.push(
        `  on ${t.eventType} → ${(t.target ?? []).join(',') || '(none)'} guard=${t.guard === undefined ? '' : nameOf(t.guard)} ` +
          `actions=${t.actions.map(nameOf).join(',')} delay=${t.delay ?? ''} reenter=${t.reenter}`,
      );
    }
    for (const child of Object.values(node.states)) walk(child);
  };
  walk(root);
  return lines;
}

function stateIds(machine: AnyStateMachine): string[] {
  return structure(machine)
    .filter((l) => l.startsWith('state '))
    .map((l) => l.split(' ')[1]!);
}

function eventTypes(machine: AnyStateMachine): string[] {
  return [...new Set(structure(machine).filter((l) => l.startsWith('  on ')).map((l) => l.split(' ')[3]!))].sort();
}

describe('machines entry point and JSON export', () => {
  it('machines/index.ts exports every machine, and `machines` maps each id to its machine', () => {
    expect(entry.sessionMachine).to.equal(machines.session);
    expect(entry.requestMachine).to.equal(machines.request);
    expect(entry.childProcessMachine).to.equal(machines.childProcess);
    for (const [name, machine] of Object.entries(machines)) expect(machine.id, name).to.equal(name);
    expect(entry.DEFAULT_CLOSE_TIMEOUT_MS).to.be.a('number');
  });

  for (const [name, machine] of Object.entries(machines) as [string, AnyStateMachine][]) {
    describe(name, () => {
      it('rebuilds with createMachine(json) into the same state ids, event types and transitions', () => {
        const json = JSON.parse(renderMachineJSON(machine)) as Parameters<typeof createMachine>[0];
        const rebuilt = createMachine(json);
        expect(rebuilt.id).to.equal(machine.id);
        expect(stateIds(rebuilt)).to.deep.equal(stateIds(machine));
        expect(eventTypes(rebuilt)).to.deep.equal(eventTypes(machine));
        expect(structure(rebuilt)).to.deep.equal(structure(machine));
      });

      it('is plain JSON: no functions but the context factory, stable output', () => {
        expect(renderMachineJSON(machine)).to.equal(renderMachineJSON(machine));
        expect(JSON.stringify(machineConfigJSON(machine))).to.not.include('"context"');
        expect(stateIds(machine).length).to.be.greaterThan(1);
      });
    });
  }

  it('refuses a machine with an inline function (Stately could not draw it)', () => {
    const inline = createMachine({ id: 'inline', initial: 'a', states: { a: { entry: () => {} } } });
    expect(() => machineConfigJSON(inline)).to.throw(/inline\.states\.a\.entry is an inline function/);
  });

  it('docs/machines is up to date with the code', () => {
    const files = renderAll();
    const bad = outdated(OUT_DIR, files);
    if (bad.length) expect.fail(`docs/machines is out of date (${bad.join(', ')}): run npm run machines`);
    for (const name of Object.keys(machines)) {
      expect(readFileSync(join(OUT_DIR, `${name}.json`), 'utf8'), `${name}.json: run npm run machines`).to.equal(files.get(`${name}.json`));
    }
    const readme = files.get('README.md')!;
    expect(readme).to.include('@statelyai/inspect');
    for (const name of Object.keys(machines)) expect(readme).to.include(`(./${name}.json)`);
  });
});
