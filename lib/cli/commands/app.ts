/**
 * `mcp-actors app TOOL [key=value...]`: preview a server's MCP App in a browser. The CLI declares
 * the Apps extension, finds the tool's `ui://` app, and serves a host page on 127.0.0.1 that
 * renders it through a sandbox proxy on another origin and calls the tool (see app-preview.ts).
 */
import { int, str } from '../args.js';
import { startAppPreview } from '../app-preview.js';
import { parseArguments } from '../cli-connection.js';
import { CliError, ExitCode, UsageError } from '../exit-codes.js';
import { appToolMeta, appsCapability } from '../../protocol/apps-extension.js';
import { talkCommand } from './talk.js';

export const appCommand = talkCommand(
  {
    name: 'app',
    summary: "preview a tool's MCP App in a browser (served on 127.0.0.1)",
    usage: `Usage: mcp-actors app TOOL [key=value ...] [--args JSON] [--port N] <server>

Finds the ui:// app linked to TOOL (its _meta.ui.resourceUri), serves a page on 127.0.0.1 that
renders it in a sandboxed frame (the sandbox proxy on a second port: another origin), calls TOOL
with the arguments, and hands the view its input and result. The view's own tool calls and reads
go to the server through this connection. Open the printed URL in a browser; Ctrl-C stops.
Example: mcp-actors app search_notes query=otter --url http://127.0.0.1:3000/mcp`,
    options: { args: { type: 'string' }, port: { type: 'string' } },
  },
  async (conn, p, ctx) => {
    const [name, ...words] = p.positionals;
    const toolInput = parseArguments(words, str(p, 'args'));
    const tools = await conn.run((o) => conn.client.listTools({ signal: o.signal }));
    const tool = tools.find((t) => t.name === name);
    if (tool === undefined) throw new CliError(`The server has no tool "${name}" (it has ${tools.map((t) => t.name).join(', ') || 'none'})`, ExitCode.BadInput);
    const uri = appToolMeta(tool._meta as Record<string, unknown> | undefined)?.resourceUri;
    if (uri === undefined) throw new CliError(`The tool "${name}" has no app (no _meta.ui.resourceUri): call it with mcp-actors call`, ExitCode.BadInput);
    const read = await conn.run((o) => conn.client.readResource(uri, { signal: o.signal }));
    const content = read.contents[0] as { text?: string; blob?: string; mimeType?: string; _meta?: { ui?: Record<string, unknown> } } | undefined;
    const html = content?.text ?? (content?.blob !== undefined ? Buffer.from(content.blob, 'base64').toString('utf8') : undefined);
    if (html === undefined) throw new CliError(`The app ${uri} has no HTML content`, ExitCode.ServerError);
    const port = int(p, 'port', 'app');
    const preview = await startAppPreview({
      client: conn.client,
      tool: tool as never,
      toolInput,
      html,
      meta: content?._meta?.ui,
      ...(port !== undefined && { port }),
      report: (line) => ctx.stderr.write(`${line}\n`),
    });
    ctx.stdout.write(`The app of ${name} (${uri}) at ${preview.url} (Ctrl-C to stop)\n`);
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await preview.close();
    return ExitCode.Ok;
  },
  (p) => {
    if (!p.positionals[0]) throw new UsageError('Name the tool whose app to preview: mcp-actors app TOOL [key=value ...]', 'app');
  },
  appsCapability(),
);
