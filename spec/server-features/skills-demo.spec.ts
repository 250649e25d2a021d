// The demo server (examples/everything.ts) publishes a skill: our client reads it in both eras over
// stdio and over Streamable HTTP (listing reads nothing; loading verifies SKILL.md; the reference
// file is read on demand, verified), and the official SDK v2 client, which knows nothing of skills,
// still lists and calls everything else on the same server.
import { expect } from 'chai';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client } from '../../lib/entries/client.js';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import type { Transport } from '../../streams/transport.js';
import { startEverything, type ServerProcess } from '../../scripts/real-parts/server-process.js';
import { tsArgs } from '../helpers/ts-child.js';

const ENTRY = 'examples/everything.ts';

async function readSkill(transport: Transport, era: 'legacy' | 'modern'): Promise<void> {
  const client = new Client({ info: { name: 'skills-demo-spec', version: '1.0.0' }, era, probeTimeoutMs: 60_000, timeout: 60_000 });
  const reads: string[] = [];
  await client.connect(transport);
  const sub = client.frames$.subscribe((f) => {
    const frame = f.frame as { method?: string; params?: { uri?: string } };
    if (f.direction === 'out' && frame.method === 'resources/read') reads.push(String(frame.params?.uri));
  });
  try {
    expect(client.era).to.equal(era);
    const skills = await client.skills.listAll();
    expect(skills.map((s) => s.uri)).to.deep.equal(['skill://field-notes/SKILL.md']);
    expect(skills[0]!.frontmatter).to.include({ name: 'field-notes', license: 'MIT' });
    expect(reads).to.deep.equal([]);
    const skill = await client.skills.load(skills[0]!);
    expect(skill.skillMd.text).to.contain('# Field notes');
    expect((await skill.read('references/TAGS.md')).text).to.contain('# Tags');
    expect(reads).to.deep.equal(['skill://field-notes/SKILL.md', 'skill://field-notes/references/TAGS.md']);
    // The rest of the server is unchanged.
    expect((await client.listTools()).map((t) => t.name)).to.include('convert_units');
  } finally {
    sub.unsubscribe();
    await client.close();
  }
}

describe('skills on the demo server, both eras, stdio and HTTP', function () {
  this.timeout(90_000);

  for (const era of ['modern', 'legacy'] as const) {
    it(`over stdio, ${era} era: listed without reads, loaded and verified, a file read on demand`, async () => {
      await readSkill(createStdioClientTransport({ command: process.execPath, args: [...tsArgs(ENTRY), '--stdio'], stderr: 'ignore' }), era);
    });
  }

  describe('over Streamable HTTP', () => {
    let server: ServerProcess | undefined;
    let url: string;
    before(async () => {
      server = await startEverything({ launch: tsArgs(ENTRY) });
      url = server.url;
    });
    after(() => server?.stop());

    for (const era of ['modern', 'legacy'] as const) {
      it(`${era} era: listed without reads, loaded and verified, a file read on demand`, async () => {
        await readSkill(createStreamableHttpClientTransport(url), era);
      });
    }

    it('the SDK v2 client (pinned to 2026-07-28) lists and calls everything else on the same server', async () => {
      const client = new ClientV2({ name: 'sdk-v2', version: '2.4.0' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } } as never);
      await client.connect(new HttpV2(new URL(url)));
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).to.include('convert_units');
        const converted = (await client.callTool({ name: 'convert_units', arguments: { value: 100, from: 'celsius', to: 'fahrenheit' } })) as { structuredContent?: unknown };
        expect(JSON.stringify(converted.structuredContent)).to.contain('212');
        const { resources } = await client.listResources();
        expect(resources.map((r) => r.uri)).to.include.members(['notes://index', 'skill://field-notes/SKILL.md']);
        const { prompts } = await client.listPrompts();
        expect(prompts.map((p) => p.name)).to.include('review_note');
      } finally {
        await client.close();
      }
    });
  });
});
