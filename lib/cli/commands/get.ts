/** `mcp-actors get PROMPT [key=value...]`: get a prompt's messages. */
import { str } from '../args.js';
import { parseArguments } from '../cli-connection.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { formatBlock, json } from '../format.js';
import { talkCommand } from './talk.js';

export const getCommand = talkCommand(
  {
    name: 'get',
    summary: 'get a prompt',
    usage: `Usage: mcp-actors get PROMPT [key=value ...] [--args JSON] <server>

Gets the prompt's messages with the arguments given (prompt arguments are strings).
Example: mcp-actors get args-prompt city=Paris --stdio "..."`,
    options: { args: { type: 'string' } },
  },
  async (conn, p, ctx) => {
    const [name, ...words] = p.positionals;
    const args = parseArguments(words, str(p, 'args'), true) as Record<string, string>;
    const result = await conn.run((o) => conn.client.getPrompt(name!, args, { signal: o.signal, onprogress: o.onprogress }));
    if (p.values.json) ctx.stdout.write(json(result) + '\n');
    else {
      const s = ctx.style;
      if (result.description) ctx.stdout.write(s.dim(result.description) + '\n');
      for (const m of result.messages) ctx.stdout.write(`${s.bold(m.role + ':')} ${formatBlock(m.content as unknown as Record<string, unknown>, s)}\n`);
    }
    return ExitCode.Ok;
  },
  (p) => {
    if (!p.positionals[0]) throw new UsageError('Name the prompt: mcp-actors get PROMPT [key=value ...]', 'get');
  },
);
