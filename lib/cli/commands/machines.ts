/** `mcp-actors machines`: every machine as JSON for Stately's editor, and how to watch a live session. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { machines } from '../../../machines/index.js';
import { machineConfigJSON } from '../../../machines/json.js';
import { renderAll } from '../../../machines/readme.js';
import { parseCommand, str } from '../args.js';
import type { Command } from '../cli-context.js';
import { CliError, EXIT_CODES_HELP, ExitCode, UsageError } from '../exit-codes.js';

const USAGE = `Usage: mcp-actors machines [NAME] [--out DIR]

Every XState machine of mcp-actors as JSON for Stately's editor (https://stately.ai/editor: new
machine, Import, paste createMachine(<json>)).
  (no option)   print { name: config } for all machines (or NAME's config) on stdout
  --out DIR     write DIR/<name>.json, DIR/<name>.manifest.json and DIR/README.md (what \`npm run machines\` writes to docs/machines)

Names: ${Object.keys(machines).join(', ')}

Watch a live session in Stately's inspector: add @statelyai/inspect to your project and pass its
inspector's \`inspect\` function as the session option of the same name; the session then runs its
machine as a live actor that the inspector draws as it moves:
  import { createSkyInspector } from '@statelyai/inspect';   // Node: prints a live inspection URL
  const { inspect } = createSkyInspector();
  const client = new Client({ info: { name: 'me', version: '1.0.0' }, inspect });
(In a browser app use createBrowserInspector() the same way.)

${EXIT_CODES_HELP}`;

export const machinesCommand: Command = {
  name: 'machines',
  summary: 'export the state machines as JSON for Stately (and how to inspect a live session)',
  async run(argv, ctx) {
    const p = parseCommand({ name: 'machines', summary: '', usage: USAGE, options: { out: { type: 'string', short: 'o' } } }, argv);
    if (p.help) {
      ctx.stdout.write(USAGE + '\n');
      return ExitCode.Ok;
    }
    const name = p.positionals[0];
    const all = machines as Record<string, (typeof machines)[keyof typeof machines]>;
    if (name !== undefined && !(name in all)) throw new UsageError(`Unknown machine ${JSON.stringify(name)}; one of ${Object.keys(all).join(', ')}`, 'machines');
    const chosen = name === undefined ? all : { [name]: all[name]! };
    const out = str(p, 'out');
    if (out === undefined) {
      const json = name === undefined ? Object.fromEntries(Object.entries(chosen).map(([n, m]) => [n, machineConfigJSON(m)])) : machineConfigJSON(all[name]!);
      ctx.stdout.write(JSON.stringify(json, null, 2) + '\n');
      return ExitCode.Ok;
    }
    const dir = resolve(ctx.cwd, out);
    try {
      mkdirSync(dir, { recursive: true });
      const files = renderAll(chosen);
      for (const [file, content] of files) writeFileSync(join(dir, file), content);
      ctx.stderr.write(`Wrote ${[...files.keys()].join(', ')} to ${dir}\n`);
    } catch (e) {
      throw new CliError(`Cannot write to ${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, ExitCode.BadInput);
    }
    return ExitCode.Ok;
  },
};
