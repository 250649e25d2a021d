/** `mcp-actors list [tools|resources|templates|prompts]`: what a server offers. */
import type { Client } from '../../client.js';
import { hasCapability } from '../../protocol/methods.js';
import { UsageError, ExitCode } from '../exit-codes.js';
import { formatList, json, schemaSignature } from '../format.js';
import { talkCommand } from './talk.js';

const KINDS = ['tools', 'resources', 'templates', 'prompts'] as const;
type Kind = (typeof KINDS)[number];
const CAPABILITY: Record<Kind, string> = { tools: 'tools', resources: 'resources', templates: 'resources', prompts: 'prompts' };

export const listCommand = talkCommand(
  {
    name: 'list',
    summary: 'list the tools, resources, resource templates and prompts of a server',
    usage: `Usage: mcp-actors list [tools|resources|templates|prompts] <server>

Lists what the server offers (everything it declared, when no kind is given).
Example: mcp-actors list tools --stdio "npx -y @modelcontextprotocol/server-everything"`,
    options: {},
  },
  async (conn, p, ctx) => {
    const client = conn.client;
    const kinds = p.positionals.length ? (p.positionals as Kind[]) : KINDS.filter((k) => hasCapability(client.serverCapabilities, [CAPABILITY[k]]));
    const out: Record<string, unknown> = {};
    for (const kind of kinds) {
      if (!hasCapability(client.serverCapabilities, [CAPABILITY[kind]])) {
        out[kind] = [];
        continue;
      }
      out[kind] = await conn.run((o) => fetch(client, kind, o));
    }
    if (p.values.json) {
      ctx.stdout.write(json(kinds.length === 1 ? out[kinds[0]!] : { server: client.serverInfo, ...out }) + '\n');
      return ExitCode.Ok;
    }
    const s = ctx.style;
    const info = client.serverInfo;
    ctx.stdout.write(`${s.bold(info?.name ?? 'server')} ${s.dim(`${info?.version ?? ''} · revision ${client.protocolVersion ?? '?'}`)}\n`);
    for (const kind of kinds) {
      const items = out[kind] as Record<string, unknown>[];
      const text =
        kind === 'tools'
          ? formatList('Tools', items, 'name', s, (t) => schemaSignature(t.inputSchema) || undefined)
          : kind === 'resources'
            ? formatList('Resources', items, 'uri', s, (r) => (r.name ? String(r.name) : undefined))
            : kind === 'templates'
              ? formatList('Resource templates', items, 'uriTemplate', s)
              : formatList('Prompts', items, 'name', s, (pr) => ((pr.arguments as { name: string; required?: boolean }[] | undefined) ?? []).map((a) => `${a.name}${a.required ? '' : '?'}`).join(' ') || undefined);
      ctx.stdout.write(text + '\n');
    }
    return ExitCode.Ok;
  },
  (p) => {
    for (const k of p.positionals) if (!(KINDS as readonly string[]).includes(k)) throw new UsageError(`Unknown kind ${JSON.stringify(k)}; one of ${KINDS.join(', ')}`, 'list');
  },
);

function fetch(client: Client, kind: Kind, o: { signal: AbortSignal }): Promise<unknown[]> {
  switch (kind) {
    case 'tools':
      return client.listTools({ signal: o.signal });
    case 'resources':
      return client.listResources({ signal: o.signal });
    case 'templates':
      return client.listResourceTemplates({ signal: o.signal });
    case 'prompts':
      return client.listPrompts({ signal: o.signal });
  }
}
