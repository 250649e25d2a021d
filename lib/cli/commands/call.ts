/** `mcp-actors call TOOL [key=value...]`: call a tool, with progress and cancellation. */
import { str } from '../args.js';
import { parseArguments } from '../cli-connection.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { formatContent, json } from '../format.js';
import { talkCommand } from './talk.js';

export const callCommand = talkCommand(
  {
    name: 'call',
    summary: 'call a tool',
    usage: `Usage: mcp-actors call TOOL [key=value ...] [--args JSON] <server>

Calls TOOL with the arguments (values are read as JSON when they parse: n=3 is a number,
text=hi a string; --args '{"n":3}' gives them all at once). Progress the server reports is
drawn as a bar. Exit code 1 when the tool reports isError.
Example: mcp-actors call echo message=hello --stdio "node server.js"`,
    options: { args: { type: 'string' } },
  },
  async (conn, p, ctx) => {
    const [name, ...words] = p.positionals;
    const args = parseArguments(words, str(p, 'args'));
    await conn.run((o) => conn.client.listTools({ signal: o.signal })).catch(() => undefined);
    const result = await conn.run((o) => conn.client.callTool(name!, args, { signal: o.signal, onprogress: o.onprogress, resetTimeoutOnProgress: true }));
    if (p.values.json) ctx.stdout.write(json(result) + '\n');
    else {
      const text = formatContent(result.content, ctx.style);
      if (text) ctx.stdout.write(text + '\n');
      if (result.structuredContent !== undefined && !text) ctx.stdout.write(json(result.structuredContent) + '\n');
      if (result.isError) ctx.stderr.write(ctx.errStyle.red('The tool reported an error (isError).') + '\n');
    }
    return result.isError ? ExitCode.Difference : ExitCode.Ok;
  },
  (p) => {
    if (!p.positionals[0]) throw new UsageError('Name the tool to call: mcp-actors call TOOL [key=value ...]', 'call');
  },
);
