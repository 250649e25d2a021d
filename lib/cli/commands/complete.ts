/** `mcp-actors complete`: ask for completions of a prompt or resource-template argument. */
import { str } from '../args.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { json } from '../format.js';
import { talkCommand } from './talk.js';

export const completeCommand = talkCommand(
  {
    name: 'complete',
    summary: 'complete a prompt or resource-template argument',
    usage: `Usage: mcp-actors complete (--prompt NAME | --template URI_TEMPLATE) ARGUMENT [VALUE] <server>

Asks the server for completions of ARGUMENT starting from VALUE (default empty).
Example: mcp-actors complete --prompt completable-prompt department E --stdio "..."`,
    options: { prompt: { type: 'string' }, template: { type: 'string' } },
  },
  async (conn, p, ctx) => {
    const [argument, value = ''] = p.positionals;
    const prompt = str(p, 'prompt');
    const ref = prompt !== undefined ? { type: 'ref/prompt' as const, name: prompt } : { type: 'ref/resource' as const, uri: str(p, 'template')! };
    const result = await conn.run((o) => conn.client.complete(ref, { name: argument!, value }, undefined, { signal: o.signal }));
    if (p.values.json) ctx.stdout.write(json(result) + '\n');
    else {
      for (const v of result.completion.values) ctx.stdout.write(v + '\n');
      if (result.completion.hasMore) ctx.stderr.write(ctx.errStyle.dim(`(more: ${result.completion.total ?? '?'} in all)`) + '\n');
    }
    return ExitCode.Ok;
  },
  (p) => {
    if ((str(p, 'prompt') === undefined) === (str(p, 'template') === undefined)) throw new UsageError('Give one of --prompt NAME or --template URI_TEMPLATE', 'complete');
    if (!p.positionals[0]) throw new UsageError('Name the argument to complete', 'complete');
  },
);
