// A server over stdio with the high-level API: a typed tool, a resource, a resource template and
// a prompt. Capabilities are declared from what is registered. Run it with `node server.js`.
import { createMcpServer, ResourceNotFoundError, text } from 'mcp-actors';
import { createStdioServerTransport } from 'mcp-actors/streams';
import { z } from 'zod';

const notes = new Map([['1', 'Buy milk'], ['2', 'Call Ada']]);
const mcp = createMcpServer({ info: { name: 'notes', version: '1.0.0' } });

// A zod object (or any Standard Schema, or a raw shape `{ a: z.number() }`): the arguments
// arrive validated and typed; invalid ones are answered with `isError: true` and the reason.
mcp.registerTool(
  'add',
  { description: 'Adds two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }) },
  async ({ a, b }, ctx) => {
    ctx.log.info(`adding ${a} and ${b}`); // a log message to this client, if it asked for logs
    return { content: [text(String(a + b))] };
  },
);

// A resource at a fixed URI, and a family of them under a URI template.
mcp.registerResource('index', 'notes://index', { mimeType: 'text/plain' }, () => ({
  contents: [{ text: [...notes.keys()].join('\n') }],
}));
mcp.registerResourceTemplate(
  'note',
  'notes://note/{id}',
  {
    mimeType: 'text/plain',
    list: () => [...notes.keys()].map((id) => ({ uri: `notes://note/${id}`, name: `note ${id}` })),
    complete: { id: (value) => [...notes.keys()].filter((id) => id.startsWith(value)) },
  },
  (uri, { id }) => {
    const note = notes.get(String(id));
    if (note === undefined) throw new ResourceNotFoundError(uri); // -32002 with the URI
    return { contents: [{ text: note }] };
  },
);

// A prompt with a typed argument.
mcp.registerPrompt('review', { description: 'Review a note', argsSchema: z.object({ id: z.string() }) }, ({ id }) => ({
  messages: [{ role: 'user', content: text(`Please review note ${id}: ${notes.get(id) ?? '(missing)'}`) }],
}));

await mcp.connect(createStdioServerTransport()); // ends when the client closes stdin
