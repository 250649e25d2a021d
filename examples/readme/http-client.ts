// A client over Streamable HTTP (falls back to the 2024-11-05 HTTP+SSE transport by itself).
import { createClient } from 'mcp-actors/client';
import { createStreamableHttpClientTransport } from 'mcp-actors/streams';

const url = process.argv[2] ?? 'http://127.0.0.1:3000/mcp';
const client = createClient({ info: { name: 'my-agent', version: '1.0.0' } });
await client.connect(createStreamableHttpClientTransport(url));
const { tools } = await client.listTools();
const result = await client.callTool({ name: tools[0]!.name, arguments: { name: 'Ada' } });
console.log(result.content[0]?.type === 'text' ? result.content[0].text : '?');
await client.close();
