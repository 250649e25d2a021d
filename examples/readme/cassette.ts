// A cassette in a test: the first run records a session with the real server into a file, later
// runs replay the file as a mock server (no server process); a changed request fails with a diff.
import { fileURLToPath } from 'node:url';
import { createClient } from 'mcp-actors/client';
import { cassette } from 'mcp-actors/cassette';

const file = process.argv[2] ?? 'notes.cassette.jsonl';
const serverFile = fileURLToPath(new URL('./server.js', import.meta.url));
const tape = await cassette(file, { server: { command: process.execPath, args: [serverFile] } });
const client = createClient({ info: { name: 'notes-test', version: '1.0.0' } });
await client.connect(tape.transport()); // other clients: launch tape.command over stdio
const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
console.log(tape.mode, sum.content[0]?.type === 'text' ? sum.content[0].text : '?');
await client.close();
await tape.close();
