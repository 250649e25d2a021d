/** `mcp-actors complete`: ask for completions of a prompt or resource-template argument. */
import { str } from '../args.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { json } from '../format.js';
import { talkCommand } from './talk.js';

export const completeCommand = talkCommand(
  {
    name: 'complete',
    summary: 'complete a prompt or resource-template argument',
    usage: `Usage: mcp-actors complete (--prompt NAME | --template URI_TEMPLATE) ARGUMENT[=VALUE] [key=value...] <server>

Asks the server for completions of ARGUMENT starting from VALUE (default empty), as call and get
take arguments; further key=value words are the arguments already chosen (the request's context).
The older form ARGUMENT VALUE still works.
Example: mcp-actors complete --prompt completable-prompt department=E --stdio "..."`,
    options: { prompt: { type: 'string' }, template: { type: 'string' } },
  },
  async (conn, p, ctx) => {
    const { argument, value, context, olderForm } = completionWords(p.positionals);
    if (olderForm) ctx.stderr.write(`note: \`complete ${argument} ${value}\` is the older form; write ${argument}=${value}, as call and get take arguments.\n`);
    const prompt = str(p, 'prompt');
    const ref = prompt !== undefined ? { type: 'ref/prompt' as const, name: prompt } : { type: 'ref/resource' as const, uri: str(p, 'template')! };
    const withContext = Object.keys(context).length > 0 ? { arguments: context } : undefined;
    const result = await conn.run((o) => conn.client.complete(ref, { name: argument, value }, withContext, { signal: o.signal }));
    if (p.values.json) ctx.stdout.write(json(result) + '\n');
    else {
      for (const v of result.completion.values) ctx.stdout.write(v + '\n');
      if (result.completion.hasMore) ctx.stderr.write(ctx.errStyle.dim(`(more: ${result.completion.total ?? '?'} in all)`) + '\n');
    }
    return ExitCode.Ok;
  },
  (p) => {
    if ((str(p, 'prompt') === undefined) === (str(p, 'template') === undefined)) throw new UsageError('Give one of --prompt NAME or --template URI_TEMPLATE', 'complete');
    completionWords(p.positionals);
  },
);

/**
 * The words after the options: `ARG=VALUE key=value...`, `ARG` alone, or the older `ARG VALUE`
 * (kept working; the command notes it, since the other commands take key=value).
 */
function completionWords(words: readonly string[]): { argument: string; value: string; context: Record<string, string>; olderForm: boolean } {
  const [first = '', ...rest] = words;
  if (first === '' || first.startsWith('=')) throw new UsageError('Name the argument to complete: ARGUMENT=VALUE (or ARGUMENT alone, to start from nothing)', 'complete');
  if (!first.includes('=') && rest.length === 1 && !rest[0]!.includes('=')) return { argument: first, value: rest[0]!, context: {}, olderForm: true };
  const context: Record<string, string> = {};
  for (const w of rest) {
    const i = w.indexOf('=');
    if (i <= 0) throw new UsageError(`After ARGUMENT=VALUE come key=value words (the arguments already chosen); got ${JSON.stringify(w)}`, 'complete');
    context[w.slice(0, i)] = w.slice(i + 1);
  }
  const i = first.indexOf('=');
  return i < 0 ? { argument: first, value: '', context, olderForm: false } : { argument: first.slice(0, i), value: first.slice(i + 1), context, olderForm: false };
}
