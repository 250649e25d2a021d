// examples/terminal.ts end to end: over stdio with our client, and over Streamable HTTP on
// 127.0.0.1 with the official SDK 1.32.2 client (its experimental tasks included). Real shells.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '../../lib/entries/client.js';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import { tsArgs } from '../helpers/ts-child.js';

const TERMINAL = fileURLToPath(new URL('../../examples/terminal.ts', import.meta.url));
/** The names of a process's descendants (Linux /proc; empty where it cannot be read). */
function descendantNames(pid: number): string[] {
  const names: string[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) {
        try {
          names.push(readFileSync(`/proc/${child}/comm`, 'utf8').trim(), ...descendantNames(Number(child)));
        } catch {
          // Gone meanwhile.
        }
      }
    }
  } catch {
    // Gone, or no /proc.
  }
  return names;
}

const structured = (r: unknown) => (r as { structuredContent: { output: string; exitCode: number; cancelled: boolean } }).structuredContent;

describe('examples/terminal.ts', function () {
  this.timeout(60_000);

  it('over stdio with our client: echo, a command with progress, the screen resource', async () => {
    const transport = createStdioClientTransport({ command: process.execPath, args: [...tsArgs(TERMINAL), '--stdio'], stderr: 'pipe' });
    const stderr: string[] = [];
    transport.stderr$.subscribe((l) => stderr.push(l));
    // Terminals live as long as the session that opened them: the legacy era (in 2026-07-28 each
    // request's session ends with it, and the terminal with it).
    const client = new Client({ era: 'legacy', info: { name: 'terminal-e2e', version: '0.0.1' } });
    try {
      await client.connect(transport);
      const opened = await client.callTool('terminal_open', {});
      const { terminalId, uri } = opened.structuredContent as { terminalId: string; uri: string };
      const echo = await client.callTool('terminal_run', { terminalId, command: 'echo "hi $MCP_TERMINAL"' });
      expect(structured(echo)).to.deep.equal({ exitCode: 0, output: 'hi 1', cancelled: false });
      const progress: string[] = [];
      const slow = await client.callTool('terminal_run', { terminalId, command: 'for i in 1 2 3; do echo tick $i; sleep 0.6; done' }, { onprogress: (p) => progress.push(p.message ?? '') });
      expect(structured(slow).output.split('\n')).to.deep.equal(['tick 1', 'tick 2', 'tick 3']);
      expect(progress).to.include.members(['tick 1', 'tick 3']);
      const screen = await client.readResource(uri);
      expect((screen.contents[0] as { text: string }).text).to.include('tick 3');
    } catch (e) {
      console.error(stderr.join('\n'));
      throw e;
    } finally {
      await client.close();
    }
  });

  describe('over Streamable HTTP with the official SDK client', () => {
    let child: ChildProcess;
    let url: string;
    let sdk: SdkClient;

    before(async () => {
      child = spawn(process.execPath, [...tsArgs(TERMINAL)], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
      url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.on('exit', (code) => reject(new Error(`terminal example exited (${code}): ${out}`)));
      });
      sdk = new SdkClient({ name: 'sdk', version: '1.32.2' }, { capabilities: { elicitation: { form: {} } } });
      sdk.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { confirm: true } }));
      await sdk.connect(new StreamableHTTPClientTransport(new URL(url)));
    });

    after(async () => {
      await sdk?.close();
      if (child && child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
    });

    it('echo; a several-second command as a task; a task cancelled midway; a confirmed command; a full-screen program through the screen resource', async () => {
      const tools = await sdk.listTools();
      expect(tools.tools.find((t) => t.name === 'terminal_run')!.execution).to.deep.equal({ taskSupport: 'optional' });
      const opened = (await sdk.callTool({ name: 'terminal_open', arguments: {} })) as unknown as { structuredContent: { terminalId: string; uri: string } };
      const { terminalId, uri } = opened.structuredContent;
      expect(structured(await sdk.callTool({ name: 'terminal_run', arguments: { terminalId, command: 'echo hello' } })).output).to.equal('hello');

      // A several-second command as a task, followed by the SDK's stream.
      const messages: any[] = [];
      for await (const m of sdk.experimental.tasks.callToolStream({ name: 'terminal_run', arguments: { terminalId, command: 'sleep 1; echo slept' } }, undefined, { task: {} })) messages.push(m);
      expect(messages[0].type).to.equal('taskCreated');
      expect(structured(messages[messages.length - 1].result).output).to.equal('slept');

      // Cancelled midway: the task ends cancelled, the terminal takes the next command.
      const stream = sdk.experimental.tasks.callToolStream({ name: 'terminal_run', arguments: { terminalId, command: 'sleep 30' } }, undefined, { task: {} });
      const created: any = (await stream.next()).value;
      // Cancel once `sleep` runs: a Ctrl-C between the shell's fork and exec is swallowed by the
      // child (it still has the shell's handler), and only the grace period's SIGTERM ends it.
      for (const start = Date.now(); !descendantNames(child.pid!).includes('sleep') && Date.now() - start < 30_000; ) await new Promise((r) => setTimeout(r, 20));
      expect((await sdk.experimental.tasks.cancelTask(created.task.taskId)).status).to.equal('cancelled');
      await stream.return(undefined);
      let after: unknown;
      // Busy until the interrupted command has ended (bounded: a loaded machine is slow to get there).
      for (let i = 0; i < 150; i++) {
        after = await sdk.callTool({ name: 'terminal_run', arguments: { terminalId, command: 'echo next' } });
        if (!(after as { isError?: boolean }).isError) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(structured(after).output).to.equal('next');

      // A command the policy wants confirmed: the SDK client's elicitation handler says yes.
      const removed = await sdk.callTool({ name: 'terminal_run', arguments: { terminalId, command: 'touch x && rm x && echo removed' } });
      expect(structured(removed).output).to.equal('removed');

      // A full-screen program: less on a long file, read through the screen resource.
      await sdk.callTool({ name: 'terminal_run', arguments: { terminalId, command: 'seq 1 500 > n.txt' } });
      await sdk.callTool({ name: 'terminal_send', arguments: { terminalId, text: 'less n.txt\r' } });
      let screen = '';
      for (let i = 0; i < 50 && !screen.includes('\n20\n'); i++) {
        await new Promise((r) => setTimeout(r, 100));
        screen = ((await sdk.readResource({ uri })).contents[0] as { text: string }).text;
      }
      expect(screen.split('\n').slice(0, 3)).to.deep.equal(['1', '2', '3']);
      await sdk.callTool({ name: 'terminal_send', arguments: { terminalId, text: 'q' } });
    });
  });
});
