// Skills extension rules between our server and our client, in-memory, both eras: same-named skills
// of one server are both listed and each loads its own content (names are labels); a resource whose
// URI merely looks like a skill is no skill; skills/get takes only a SKILL.md URI and answers for a
// skill missing from the page listed; reading a skill file the server does not serve is -32602 on
// 2026-07-28, as that revision's resources/read says.
import { expect } from 'chai';
import { createClient, type Client } from '../../lib/entries/client.js';
import { McpError } from '../../lib/errors.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { createMemoryPair } from '../../streams/memory.js';

const skillMd = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n${description}.\n`;

async function connect(mcp: McpServer, era: 'legacy' | 'modern'): Promise<Client> {
  const [c, s] = createMemoryPair();
  await mcp.connect(s);
  const client = createClient({ info: { name: 'skills-rules', version: '1' }, era });
  await client.connect(c);
  return client;
}

function server(): McpServer {
  const mcp = createMcpServer({ info: { name: 'skills', version: '1' }, pageSize: 1 });
  mcp.registerSkill({ prefix: 'acme/billing', files: { 'SKILL.md': skillMd('refunds', 'Billing refunds'), 'POLICY.md': 'billing policy\n' } });
  mcp.registerSkill({ prefix: 'acme/support', files: { 'SKILL.md': skillMd('refunds', 'Support refunds'), 'POLICY.md': 'support policy\n' } });
  // A plain resource under the skill:// scheme, not published as a skill.
  mcp.registerResource('lookalike', 'skill://lookalike/SKILL.md', { mimeType: 'text/markdown' }, (uri) => ({ contents: [{ uri, text: skillMd('lookalike', 'Not a skill') }] }));
  return mcp;
}

const code = async (p: Promise<unknown>): Promise<number | undefined> => ((await p.then(() => undefined, (e: unknown) => e)) as McpError | undefined)?.code;

for (const era of ['legacy', 'modern'] as const) {
  describe(`skills rules, ${era === 'modern' ? '2026-07-28' : '2025-11-25'} era`, () => {
    it('[SKILL-026] [SKILL-027] [SKILL-028] two skills named refunds are both listed, told apart by their paths, and each loads its own files', async () => {
      const mcp = server();
      const client = await connect(mcp, era);
      try {
        const skills = await client.skills.listAll();
        expect(skills.map((s) => [s.frontmatter.name, s.uri])).to.deep.equal([
          ['refunds', 'skill://acme/billing/refunds/SKILL.md'],
          ['refunds', 'skill://acme/support/refunds/SKILL.md'],
        ]);
        const policies = await Promise.all(skills.map(async (s) => (await (await client.skills.load(s)).read('POLICY.md')).text));
        expect(policies).to.deep.equal(['billing policy\n', 'support policy\n']);
      } finally {
        await client.close();
        await mcp.close();
      }
    });

    it('[SKILL-014] [SKILL-047] [SKILL-049] a skill:// resource is no skill unless served as one; skills/get wants a SKILL.md and answers past the listed page', async () => {
      const mcp = server();
      const client = await connect(mcp, era);
      try {
        expect((await client.listResources()).resources.map((r) => r.uri)).to.include('skill://lookalike/SKILL.md');
        expect((await client.skills.listAll()).map((s) => s.uri)).to.not.include('skill://lookalike/SKILL.md');
        expect(await code(client.skills.load('skill://lookalike/SKILL.md'))).to.equal(-32602);
        // A supporting file's URI names no skill.
        expect(await code(client.skills.get('skill://acme/billing/refunds/POLICY.md'))).to.equal(-32602);
        // pageSize 1: the first page lists only billing; support is still answered by URI.
        expect((await client.skills.list()).skills.map((s) => s.uri)).to.deep.equal(['skill://acme/billing/refunds/SKILL.md']);
        expect((await client.skills.get('skill://acme/support/refunds/SKILL.md')).frontmatter.description).to.equal('Support refunds');
      } finally {
        await client.close();
        await mcp.close();
      }
    });
  });
}

describe('skills rules: errors', () => {
  it('[SKILL-070] 2026-07-28: resources/read of a skill file the server does not serve is -32602', async () => {
    const mcp = server();
    const client = await connect(mcp, 'modern');
    try {
      expect(await code(client.request('resources/read', { uri: 'skill://acme/billing/refunds/MISSING.md' }))).to.equal(-32602);
      expect(await code(client.request('resources/read', { uri: 'skill://nobody/SKILL.md' }))).to.equal(-32602);
    } finally {
      await client.close();
      await mcp.close();
    }
  });
});

describe('skills rules: the skill path', () => {
  it('[SKILL-011] [SKILL-012] the first segment must be a host-like name, the others URI path segments; a bad one is refused saying which', () => {
    const files = { 'SKILL.md': skillMd('refunds', 'Refunds') };
    const refusal = (prefix: string) => {
      try {
        createMcpServer({ info: { name: 's', version: '1' } }).registerSkill({ prefix, files });
        return undefined;
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(refusal('Acme Corp/billing')).to.include('"Acme Corp"').and.include('host-like name');
    expect(refusal('acme/a?b')).to.include('"a?b"').and.include('not a URI path segment');
    expect(refusal('acme/c#')).to.include('"c#"').and.include('not a URI path segment');
    expect(refusal('acme.example/billing-2')).to.equal(undefined);
  });
});
