// What Bun and Deno lack that mcp-actors uses: node-pty loads there but its PTYs do not work (a
// command on Bun ends at once with no output; on Deno writes fail with EBADF and the shell never
// answers), so opening a terminal fails at once with a TerminalDependencyError that says so.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { BUN, DENO, bundle, removeBundles } from '../server-bindings/adapters.js';

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(command, args, { timeout: 30_000 }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout))),
  );
}

describe('Bun and Deno: what they lack fails with a clear error', function () {
  this.timeout(60_000);
  after(() => removeBundles());

  for (const [runtime, command, args] of [
    ['Bun', BUN, []],
    ['Deno', DENO, ['run', '-A']],
  ] as const) {
    it(`${runtime}: opening a terminal is a TerminalDependencyError naming the runtime, not a hang or a crash`, async () => {
      const out = JSON.parse(await run(command, [...args, await bundle('spec/fixtures/fetch/terminal-probe.ts')]));
      expect(out).to.deep.equal({
        loaded: false,
        name: 'TerminalDependencyError',
        message: `Terminals need node-pty, which does not work on ${runtime}: serve terminals from a Node process (the rest of mcp-actors runs on ${runtime})`,
      });
    });
  }

  it('Node: the terminal modules load', async () => {
    const out = JSON.parse(await run(process.execPath, [await bundle('spec/fixtures/fetch/terminal-probe.ts')]));
    expect(out).to.deep.equal({ loaded: true });
  });
});
