// A host: several servers at once (here the server example twice, as "notes" and "archive"), one
// client each, their tools under `<server>__<tool>`, crashed stdio servers restarted. Close it on
// Ctrl-C, so the servers' processes end with it (stdin closed, then SIGTERM, then SIGKILL).
import { fileURLToPath } from 'node:url';
import { ConnectionClosedError } from 'mcp-actors';
import { createHost, ServerUnavailableError } from 'mcp-actors/host';

const serverFile = fileURLToPath(new URL('./server.js', import.meta.url));
const host = createHost({
  // The usual `mcpServers` shape (a Claude Desktop config works as it is); `{ url }` for HTTP.
  servers: { notes: { command: process.execPath, args: [serverFile] }, archive: { command: process.execPath, args: [serverFile] } },
  // Each new client, before it connects (a restart makes a new one): register roots, sampling and
  // elicitation handlers here.
  onClient: (client, server) => client.setRoots([{ uri: `file:///tmp/${server}`, name: server }]),
});
process.once('SIGINT', () => void host.close().then(() => process.exit(130)));

host.state$.subscribe((all) => console.error(Object.entries(all).map(([name, s]) => `${name}: ${s.phase}`).join(', ')));
const live = host.tools$.subscribe((tools) => console.error('tools now:', tools.map((t) => t.name).join(',')));

await host.start(); // every server's first attempt is over (see host.state for each)
await host.whenReady(); // every server is ready (rejects with ServerUnavailableError if one gave up)
const tools = await host.listTools();
console.log(tools.map((t) => `${t.name} (${t.server}: ${t.originalName})`).join(','));
const sum = await host.callTool('archive__add', { a: 20, b: 22 }); // routed to "archive" as `add`
console.log(sum.content[0]?.type === 'text' ? sum.content[0].text : '?');

live.unsubscribe();
const client = host.client('notes')!;
await host.close();
// After close() calls are refused with typed errors, nothing sent.
await host.callTool('notes__add', { a: 1, b: 2 }).catch((e: unknown) => console.log(e instanceof ServerUnavailableError, (e as ServerUnavailableError).phase));
await client.callTool('add', { a: 1, b: 2 }).catch((e: unknown) => console.log(e instanceof ConnectionClosedError));
