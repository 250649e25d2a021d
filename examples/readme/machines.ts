// The machines as JSON for Stately's editor, and an inspector attached to a live session.
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, createMcpServer } from 'mcp-actors';
import { machinesJSON } from 'mcp-actors/machines';
import { createMemoryPair } from 'mcp-actors/streams';

// 1. Export: one JSON file per machine. In Stately's editor (https://stately.ai/editor) choose
//    Import and paste `createMachine(<file contents>)`.
const dir = mkdtempSync(join(tmpdir(), 'machines-'));
for (const [name, json] of Object.entries(machinesJSON())) writeFileSync(join(dir, `${name}.json`), JSON.stringify(json, null, 2));
console.log(Object.keys(machinesJSON()).join(','));

// 2. Inspect: any XState inspector, e.g. `createBrowserInspector().inspect` from @statelyai/inspect
//    (your dependency) to watch it live in Stately; here, a function that counts what it sees.
const seen: string[] = [];
const client = createClient({ info: { name: 'inspected', version: '1.0.0' }, inspect: (event) => void seen.push(event.type) });
const mcp = createMcpServer({ info: { name: 'server', version: '1.0.0' } });
const [a, b] = createMemoryPair();
await mcp.connect(a);
await client.connect(b);
await client.close();
console.log(seen.includes('@xstate.snapshot'));
