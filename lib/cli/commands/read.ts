/** `mcp-actors read URI`: read a resource. */
import { ExitCode, UsageError } from '../exit-codes.js';
import { formatBlock, json } from '../format.js';
import { talkCommand } from './talk.js';

export const readCommand = talkCommand(
  {
    name: 'read',
    summary: 'read a resource',
    usage: `Usage: mcp-actors read URI <server>

Reads the resource at URI and prints its text (binary contents are summarized; --json shows all).
Example: mcp-actors read demo://resource/static/document/architecture.md --stdio "..."`,
    options: {},
  },
  async (conn, p, ctx) => {
    const uri = p.positionals[0]!;
    const result = await conn.run((o) => conn.client.readResource(uri, { signal: o.signal, onprogress: o.onprogress }));
    if (p.values.json) ctx.stdout.write(json(result) + '\n');
    else for (const c of result.contents) ctx.stdout.write(formatBlock({ type: 'resource', resource: c }, ctx.style) + '\n');
    return ExitCode.Ok;
  },
  (p) => {
    if (!p.positionals[0]) throw new UsageError('Give the resource URI: mcp-actors read URI', 'read');
  },
);
