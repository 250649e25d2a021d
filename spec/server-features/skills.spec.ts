// The Skills extension (io.modelcontextprotocol/skills): a server publishes skills registered from
// memory and from a directory; our client lists them (reading nothing), gets one, loads it with
// verification, and reads its files on demand, in both eras over a linked pair. Bad skills are
// refused at registration with an error that says where, and nothing of them is served.
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { createClient, type Client } from '../../lib/entries/client.js';
import { McpError } from '../../lib/errors.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { readSkillDirectory } from '../../lib/server-features/skill-directory.js';
import { SkillRegistrationError } from '../../lib/server-features/skills.js';
import { SkillVerificationError } from '../../lib/client-features/client-skills.js';
import { createMemoryPair } from '../../streams/memory.js';

const SKILL_MD = `---
name: pdf-processing
description: Extract, fill, and assemble PDF documents
license: Apache-2.0
metadata:
  version: "2.1"
  tags: [pdf, forms]
---

# PDF processing

Read \`references/FORMS.md\` first.
`;
const FORMS = '# Forms\n\nFill every field.\n';
const sha = (s: string | Uint8Array) => `sha256:${createHash('sha256').update(s).digest('hex')}`;

function pdfSkill() {
  return { files: { 'SKILL.md': SKILL_MD, 'references/FORMS.md': FORMS, 'scripts/extract.py': 'print("x")\n' } };
}

async function connect(mcp: McpServer, era: 'legacy' | 'modern'): Promise<{ client: Client; reads: string[] }> {
  const [c, s] = createMemoryPair();
  const reads: string[] = [];
  // Count what goes out: no resources/read before a load asks for one.
  const send = c.send.bind(c);
  c.send = ((frame: { method?: string; params?: { uri?: string } }, options?: unknown) => {
    if (frame.method === 'resources/read') reads.push(String(frame.params?.uri));
    return send(frame as never, options as never);
  }) as typeof c.send;
  await mcp.connect(s);
  const client = createClient({ info: { name: 'skills-spec', version: '1' }, era });
  await client.connect(c);
  return { client, reads };
}

for (const era of ['legacy', 'modern'] as const) {
  describe(`skills, ${era === 'modern' ? '2026-07-28' : '2025-11-25'} era`, () => {
    let mcp: McpServer;
    let client: Client;
    let reads: string[];
    beforeEach(async () => {
      mcp = createMcpServer({ info: { name: 'skills', version: '1' } });
      mcp.registerSkill(pdfSkill());
      mcp.registerSkill({ prefix: 'acme/billing', files: { 'SKILL.md': '---\nname: refunds\ndescription: Refund requests per policy\n---\nBody\n' } });
      ({ client, reads } = await connect(mcp, era));
    });
    afterEach(async () => {
      await client.close();
    });

    it('[SKILL-001] [SKILL-004] declares the extension with directoryRead, and resources', () => {
      const caps = client.serverCapabilities!;
      expect((caps['extensions'] as Record<string, unknown>)['io.modelcontextprotocol/skills']).to.deep.equal({ directoryRead: true });
      expect(caps['resources']).to.be.an('object');
    });

    it('[SKILL-008] [SKILL-023] [SKILL-032] [SKILL-033] [SKILL-034] [SKILL-041] [SKILL-042] [SKILL-044] skills/list: complete manifests with digests and sizes, the frontmatter verbatim, cache hints; nothing read', async () => {
      const { skills } = await client.skills.list();
      expect(skills.map((s) => s.uri)).to.deep.equal(['skill://pdf-processing/SKILL.md', 'skill://acme/billing/refunds/SKILL.md']);
      const pdf = skills[0]!;
      expect(pdf.frontmatter).to.deep.equal({ name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents', license: 'Apache-2.0', metadata: { version: '2.1', tags: ['pdf', 'forms'] } });
      expect(pdf.resources).to.deep.equal([
        { uri: 'skill://pdf-processing/SKILL.md', digest: sha(SKILL_MD), size: Buffer.byteLength(SKILL_MD) },
        { uri: 'skill://pdf-processing/references/FORMS.md', digest: sha(FORMS), size: FORMS.length },
        { uri: 'skill://pdf-processing/scripts/extract.py', digest: sha('print("x")\n'), size: 11 },
      ]);
      const raw = await client.request('skills/list', {});
      expect(raw['ttlMs']).to.be.a('number');
      expect(raw['cacheScope']).to.be.oneOf(['public', 'private']);
      if (era === 'modern') expect(raw['resultType']).to.equal('complete');
      expect(reads).to.deep.equal([]);
    });

    it('[SKILL-045] [SKILL-046] [SKILL-048] [SKILL-050] [SKILL-068] [SKILL-072] skills/get: the same entry by URI, with cache hints; an unknown skill is -32602 naming it', async () => {
      const entry = await client.skills.get('skill://acme/billing/refunds/SKILL.md');
      expect(entry.frontmatter.name).to.equal('refunds');
      const raw = await client.request('skills/get', { uri: 'skill://acme/billing/refunds/SKILL.md' });
      expect(raw['ttlMs']).to.be.a('number');
      expect(raw['cacheScope']).to.be.oneOf(['public', 'private']);
      if (era === 'modern') expect(raw['resultType']).to.equal('complete');
      const err = await client.skills.get('skill://nope/SKILL.md').catch((e: unknown) => e);
      expect(err).to.be.instanceOf(McpError);
      expect((err as McpError).code).to.equal(-32602);
      expect((err as McpError).message).to.include('skill://nope/SKILL.md');
    });

    it('[SKILL-015] [SKILL-016] [SKILL-017] SKILL.md is a resource: text/markdown, named and described from its frontmatter', async () => {
      const { resources } = await client.listResources();
      const md = resources.find((r) => r.uri === 'skill://pdf-processing/SKILL.md')!;
      expect(md).to.include({ name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents', mimeType: 'text/markdown' });
    });

    it('[SKILL-053] [SKILL-055] [SKILL-056] [SKILL-059] [SKILL-065] load: SKILL.md read and verified only then; a listed file read on demand; an unlisted one refused without a read', async () => {
      const [entry] = (await client.skills.list()).skills;
      expect(reads).to.deep.equal([]);
      const skill = await client.skills.load(entry!);
      expect(skill.skillMd.text).to.equal(SKILL_MD);
      expect(reads).to.deep.equal(['skill://pdf-processing/SKILL.md']);
      expect(skill.files).to.deep.equal(['SKILL.md', 'references/FORMS.md', 'scripts/extract.py']);
      expect((await skill.read('references/FORMS.md')).text).to.equal(FORMS);
      const unlisted = await skill.read('templates/credit-note.md').catch((e: unknown) => e);
      expect(unlisted).to.be.instanceOf(SkillVerificationError).and.to.include({ reason: 'unlisted' });
      const escape = await skill.read('../other/SKILL.md').catch((e: unknown) => e);
      expect(escape).to.be.instanceOf(SkillVerificationError).and.to.include({ reason: 'unlisted' });
      expect(reads).to.deep.equal(['skill://pdf-processing/SKILL.md', 'skill://pdf-processing/references/FORMS.md']);
    });

    it('[SKILL-031] [SKILL-036] [SKILL-054] [SKILL-057] [SKILL-058] load refuses content that does not match the entry: size, digest, frontmatter; an invalid entry is not loaded', async () => {
      const [entry] = (await client.skills.list()).skills;
      const md = entry!.resources as { uri: string; digest: string; size: number }[];
      const wrongSize = { ...entry!, resources: md.map((r) => (r.uri.endsWith('SKILL.md') ? { ...r, size: r.size + 1 } : r)) };
      expect(await client.skills.load(wrongSize).catch((e: unknown) => e)).to.be.instanceOf(SkillVerificationError).and.include({ reason: 'size' });
      const wrongDigest = { ...entry!, resources: md.map((r) => (r.uri.endsWith('SKILL.md') ? { ...r, digest: sha('evil') } : r)) };
      expect(await client.skills.load(wrongDigest).catch((e: unknown) => e)).to.be.instanceOf(SkillVerificationError).and.include({ reason: 'digest' });
      const wrongFm = { ...entry!, frontmatter: { ...entry!.frontmatter, description: 'Something else' } };
      const fmErr = await client.skills.load(wrongFm).catch((e: unknown) => e);
      expect(fmErr).to.be.instanceOf(SkillVerificationError).and.include({ reason: 'frontmatter' });
      expect((fmErr as Error).message).to.include('"description"');
      const noResources = { ...entry!, resources: undefined } as never;
      expect(await client.skills.load(noResources).catch((e: unknown) => e)).to.be.instanceOf(SkillVerificationError).and.include({ reason: 'invalid-entry' });
      // A supporting file altered after the entry was taken: refused when read.
      const skill = await client.skills.load({ ...entry!, resources: md.map((r) => (r.uri.endsWith('FORMS.md') ? { ...r, digest: sha('old forms') } : r)) });
      expect(await skill.read('references/FORMS.md').catch((e: unknown) => e)).to.be.instanceOf(SkillVerificationError).and.include({ reason: 'digest' });
    });

    it('[SKILL-002] [SKILL-062] [SKILL-063] [SKILL-064] [SKILL-069] resources/directory/read: the root and subdirectories list their children; a file or unknown URI is -32602', async () => {
      const root = await client.request('resources/directory/read', { uri: 'skill://pdf-processing' });
      if (era === 'modern') expect(root['resultType']).to.equal('complete');
      expect(root['resources']).to.deep.equal([
        { uri: 'skill://pdf-processing/SKILL.md', name: 'pdf-processing', mimeType: 'text/markdown', size: Buffer.byteLength(SKILL_MD) },
        { uri: 'skill://pdf-processing/references', name: 'references', mimeType: 'inode/directory' },
        { uri: 'skill://pdf-processing/scripts', name: 'scripts', mimeType: 'inode/directory' },
      ]);
      const refs = await client.request('resources/directory/read', { uri: 'skill://pdf-processing/references' });
      expect((refs['resources'] as { name: string }[]).map((r) => r.name)).to.deep.equal(['FORMS.md']);
      for (const uri of ['skill://pdf-processing/SKILL.md', 'skill://nowhere']) {
        const err = await client.request('resources/directory/read', { uri }).catch((e: unknown) => e);
        expect((err as McpError).code, uri).to.equal(-32602);
      }
    });

    it('[SKILL-043] a skill loads given only its URI (confirmed with skills/get)', async () => {
      const skill = await client.skills.load('skill://acme/billing/refunds/SKILL.md');
      expect(skill.entry.frontmatter.name).to.equal('refunds');
      expect(skill.skillMd.text).to.include('Body');
    });

    it('[SKILL-038] [SKILL-040] a skill past the limits is declined before any read, saying why; one at the limits loads', async () => {
      const [entry] = (await client.skills.list()).skills;
      const md = (entry!.resources as { uri: string; digest: string; size: number }[])[0]!;
      const padding = Array.from({ length: 512 }, (_, i) => ({ uri: `skill://pdf-processing/pad/${i}.md`, digest: md.digest, size: 1 }));
      const err = await client.skills.load({ ...entry!, resources: [md, ...padding] }).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(SkillVerificationError).and.include({ reason: 'over-limits' });
      expect((err as Error).message).to.include('513 files').and.include('at most 512');
      expect(reads).to.deep.equal([]);
      // 512 files (SKILL.md and 511 more) is within what every host must accept.
      const atLimit = await client.skills.load({ ...entry!, resources: [md, ...padding.slice(0, 511)] });
      expect(atLimit.files).to.have.length(512);
    });
  });
}

describe('skills: what registration refuses, and where it says', () => {
  const bad = (files: Record<string, string | Uint8Array>, prefix?: string) => {
    const mcp = createMcpServer({ info: { name: 'skills', version: '1' } });
    let error: unknown;
    try {
      mcp.registerSkill({ files, ...(prefix !== undefined && { prefix }) });
    } catch (e) {
      error = e;
    }
    return { mcp, error: error as SkillRegistrationError };
  };
  const md = (name: string) => `---\nname: ${name}\ndescription: d\n---\n`;

  it('[SKILL-006] [SKILL-007] no SKILL.md, no frontmatter, no description, YAML that does not parse', () => {
    expect(bad({ 'README.md': 'x' }).error.message).to.include('needs a SKILL.md');
    expect(bad({ 'SKILL.md': '# Title only\n' }).error.message).to.include('must begin with a YAML frontmatter');
    expect(bad({ 'SKILL.md': '---\nname: a\n---\n' }).error.message).to.include('"description"');
    expect(bad({ 'SKILL.md': '---\nname: [a\n---\n' }).error.message).to.include('not valid YAML');
    expect(bad({ 'SKILL.md': '---\nname: a\ndescription: d\n' }).error.message).to.include('not closed');
  });

  it('[SKILL-010] names that break the naming rules', () => {
    for (const name of ['PDF', 'a--b', '-a', 'a-', 'a_b', 'x'.repeat(65)]) {
      const { error } = bad({ 'SKILL.md': md(name) });
      expect(error, name).to.be.instanceOf(SkillRegistrationError);
      expect(error.message, name).to.include('naming rules').and.include('SKILL.md');
    }
  });

  it('paths outside the skill', () => {
    for (const path of ['../etc/passwd', '/abs.md', 'a/./b.md', 'a//b.md', 'a\\b.md']) {
      expect(bad({ 'SKILL.md': md('ok'), [path]: 'x' }).error.message, path).to.include('not a path inside the skill');
    }
    expect(bad({ 'SKILL.md': md('ok') }, '../up').error.message).to.include('not a path inside the skill');
  });

  it('[SKILL-039] over the limits: 513 files, more than 16 MiB', () => {
    const many: Record<string, string> = { 'SKILL.md': md('many') };
    for (let i = 0; i < 512; i++) many[`f/${i}.md`] = 'x';
    expect(bad(many).error.message).to.include('513 files').and.include('at most 512');
    expect(bad({ 'SKILL.md': md('big'), 'big.bin': new Uint8Array(16 * 1024 * 1024) }).error.message).to.include('at most 16777216');
  });

  it('the same skill twice', () => {
    const mcp = createMcpServer({ info: { name: 'skills', version: '1' } });
    mcp.registerSkill({ files: { 'SKILL.md': md('twice') } });
    expect(() => mcp.registerSkill({ files: { 'SKILL.md': md('twice') } })).to.throw(SkillRegistrationError, 'already registered');
  });

  it('a refused skill serves nothing: no extension declared, no resource registered', async () => {
    const { mcp, error } = bad({ 'SKILL.md': md('Bad') });
    expect(error).to.be.instanceOf(SkillRegistrationError);
    const { client } = await connect(mcp, 'legacy');
    expect(client.serverCapabilities!['extensions']).to.equal(undefined);
    expect(client.serverCapabilities!['resources']).to.equal(undefined);
    await client.close();
  });
});

describe('skills: readSkillDirectory', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'skills-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('[SKILL-009] [SKILL-024] reads a skill directory with subfolders; its name must be the directory name', async () => {
    const root = join(dir, 'pdf-processing');
    mkdirSync(join(root, 'references'), { recursive: true });
    writeFileSync(join(root, 'SKILL.md'), SKILL_MD);
    writeFileSync(join(root, 'references', 'FORMS.md'), FORMS);
    const mcp = createMcpServer({ info: { name: 'skills', version: '1' } });
    const skill = mcp.registerSkill(await readSkillDirectory(root));
    expect((skill.entry.resources as { uri: string }[]).map((r) => r.uri)).to.deep.equal(['skill://pdf-processing/SKILL.md', 'skill://pdf-processing/references/FORMS.md']);
    const other = join(dir, 'other-name');
    mkdirSync(other);
    writeFileSync(join(other, 'SKILL.md'), SKILL_MD);
    const wrong = await readSkillDirectory(other);
    expect(() => createMcpServer({ info: { name: 's', version: '1' } }).registerSkill(wrong)).to.throw(SkillRegistrationError, 'must equal the skill\'s directory name "other-name"');
  });

  it('refuses a symbolic link (nothing outside the directory is served)', async () => {
    const root = join(dir, 'linked');
    mkdirSync(root);
    writeFileSync(join(root, 'SKILL.md'), md('linked'));
    writeFileSync(join(dir, 'secret.txt'), 'secret');
    symlinkSync(join(dir, 'secret.txt'), join(root, 'secret.txt'));
    const err = await readSkillDirectory(root).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(SkillRegistrationError);
    expect((err as Error).message).to.include('symbolic links are not served');
  });

  function md(name: string): string {
    return `---\nname: ${name}\ndescription: d\n---\n`;
  }
});
