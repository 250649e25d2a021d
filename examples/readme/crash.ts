// What connect() rejects with when the server cannot start or dies: a TransportError that names
// the server, with the exit code and the last lines it wrote to stderr.
import { createClient, TransportError } from 'mcp-actors';
import { createStdioClientTransport } from 'mcp-actors/streams';

const client = createClient({ info: { name: 'my-agent', version: '1.0.0' } });
const transport = createStdioClientTransport({
  name: 'broken',
  command: process.execPath,
  args: ['-e', 'console.error("config file missing"); process.exit(3)'],
  stderr: 'pipe', // keep its stderr for the error message (default: shared with ours)
});
try {
  await client.connect(transport);
} catch (e) {
  if (!(e instanceof TransportError)) throw e;
  console.log(e.message.split('\n')[0]); // MCP server "broken" (… -e …) exited with code 3 unexpectedly. …
  console.log(JSON.stringify(e.details)); // { code: 3, signal: null, stderrTail: ['config file missing'] }
}
