// The host keeps the skill files it reads (verified ones only), by server, URI and digest, filled
// as files are read: loading a skill again, or reading a file again, asks the server nothing; a
// file rotated on the server (a new digest in the entry) is fetched again; content that does not
// match its entry is never kept; another server's same-URI skill is read from that server.
// Over real HTTP on 127.0.0.1; the reads counted are the resources/read requests the clients sent.
import { expect } from 'chai';
import { SkillVerificationError } from '../../lib/client-features/client-skills.js';
import { createHost, type Host, type HostSkill } from '../../lib/host/host.js';
import { SkillCache } from '../../lib/host/skill-cache.js';
import { listen } from '../../lib/http/listen-port.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';

const skillMd = (description: string, extra = '') => `---\nname: refunds\ndescription: ${description}\n${extra}---\n\nSee notes/POLICY.md.\n`;
const files = (description: string, policy: string, extra = '') => ({ 'SKILL.md': skillMd(description, extra), 'notes/POLICY.md': policy, 'notes/OTHER.md': 'other\n' });

interface Served {
  readonly mcp: McpServer;
  readonly url: string;
  close(): Promise<void>;
}

async function serve(description: string, policy: string, extra = ''): Promise<Served & { skill: { remove(): void } }> {
  const mcp = createMcpServer({ info: { name: 'skills', version: '1' } });
  const skill = mcp.registerSkill({ files: files(description, policy, extra) });
  const web = await listen(createStreamableHttpHandler(mcp.server), { port: 0, host: '127.0.0.1', logger: false });
  return { mcp, url: web.url, skill, close: async () => (await web.close(), await mcp.close()) };
}

async function hostOf(servers: Record<string, Served>, reads: string[], skillCache?: SkillCache | false): Promise<Host> {
  const host = createHost({
    servers: Object.fromEntries(Object.entries(servers).map(([name, s]) => [name, { url: s.url }])),
    ...(skillCache !== undefined && { skillCache }),
    onClient: (client, server) =>
      void client.frames$.subscribe((f) => {
        const frame = f.frame as { method?: string; params?: { uri?: string } };
        if (f.direction === 'out' && frame.method === 'resources/read') reads.push(`${server} ${frame.params!.uri!.replace('skill://refunds/', '')}`);
      }),
  });
  await host.start();
  await host.whenReady();
  return host;
}

const entryOf = async (host: Host, server: string): Promise<HostSkill> => (await host.listSkills()).find((s) => s.server === server)!;

describe('host: skill files cached as they are read', function () {
  this.timeout(20_000);

  it('[SKILL-060] [SKILL-095] a second load and a second read ask the server nothing; only the files read were fetched; a rotated file is fetched again', async () => {
    const billing = await serve('Billing refunds', 'v1\n');
    const reads: string[] = [];
    const host = await hostOf({ billing }, reads);
    try {
      const first = await host.loadSkill('billing', await entryOf(host, 'billing'));
      // On demand: SKILL.md at load, nothing else yet.
      expect(reads).to.deep.equal(['billing SKILL.md']);
      expect((await first.read('notes/POLICY.md')).text).to.equal('v1\n');
      expect(reads).to.deep.equal(['billing SKILL.md', 'billing notes/POLICY.md']);
      expect(host.skillCache!.stats).to.include({ files: 2, misses: 2, hits: 0 });

      const again = await host.loadSkill('billing', await entryOf(host, 'billing'));
      expect(again.skillMd.text).to.equal(first.skillMd.text);
      expect((await again.read('notes/POLICY.md')).text).to.equal('v1\n');
      expect((await first.read('notes/POLICY.md')).text).to.equal('v1\n');
      expect(reads).to.have.length(2);
      expect(host.skillCache!.stats).to.include({ hits: 3 });

      // The server rotates POLICY.md: its new entry names a new digest, SKILL.md's is the same.
      billing.skill.remove();
      billing.mcp.registerSkill({ files: files('Billing refunds', 'v2\n') });
      const rotated = await host.loadSkill('billing', await entryOf(host, 'billing'));
      expect(reads).to.have.length(2);
      expect((await rotated.read('notes/POLICY.md')).text).to.equal('v2\n');
      expect(reads.slice(2)).to.deep.equal(['billing notes/POLICY.md']);
      // The held entry of the earlier load still reads its own version: v1 is in the cache by its digest.
      expect((await first.read('notes/POLICY.md')).text).to.equal('v1\n');
      expect(reads).to.have.length(3);
    } finally {
      await host.close();
      await billing.close();
    }
  });

  it('[SKILL-095] only verified content is kept: a file that does not match its entry is refused and fetched again next time', async () => {
    const billing = await serve('Billing refunds', 'v1\n');
    const reads: string[] = [];
    const host = await hostOf({ billing }, reads);
    try {
      const entry = await entryOf(host, 'billing');
      const forged = { ...entry, resources: (entry.resources as { uri: string; digest: string; size: number }[]).map((r) => (r.uri.endsWith('POLICY.md') ? { ...r, digest: `sha256:${'0'.repeat(64)}` } : r)) };
      const skill = await host.loadSkill('billing', forged);
      for (let i = 0; i < 2; i++) {
        const refused = await skill.read('notes/POLICY.md').catch((e: unknown) => e);
        expect(refused).to.be.instanceOf(SkillVerificationError).and.include({ reason: 'digest' });
      }
      expect(reads.filter((r) => r.endsWith('POLICY.md'))).to.have.length(2);
      expect(host.skillCache!.stats.files).to.equal(1);
    } finally {
      await host.close();
      await billing.close();
    }
  });

  it('[SKILL-060] the cache is per server: the same URI on another server is read from that server', async () => {
    const billing = await serve('Billing refunds', 'billing policy\n');
    const support = await serve('Support refunds', 'support policy\n');
    const reads: string[] = [];
    const host = await hostOf({ billing, support }, reads);
    try {
      expect((await (await host.loadSkill('billing', await entryOf(host, 'billing'))).read('notes/OTHER.md')).text).to.equal('other\n');
      // OTHER.md has the same bytes (same digest) on both: still read from support, never served from billing's copy.
      const fromSupport = await host.loadSkill('support', await entryOf(host, 'support'));
      expect((await fromSupport.read('notes/OTHER.md')).text).to.equal('other\n');
      expect(fromSupport.skillMd.text).to.include('Support refunds');
      expect(reads).to.deep.equal(['billing SKILL.md', 'billing notes/OTHER.md', 'support SKILL.md', 'support notes/OTHER.md']);
    } finally {
      await host.close();
      await billing.close();
      await support.close();
    }
  });

  it('skillCache: false reads every time; a bad bound is refused', async () => {
    const billing = await serve('Billing refunds', 'v1\n');
    const reads: string[] = [];
    const host = await hostOf({ billing }, reads, false);
    try {
      expect(host.skillCache).to.equal(undefined);
      await host.loadSkill('billing', 'skill://refunds/SKILL.md');
      await host.loadSkill('billing', 'skill://refunds/SKILL.md');
      expect(reads).to.deep.equal(['billing SKILL.md', 'billing SKILL.md']);
    } finally {
      await host.close();
      await billing.close();
    }
    expect(() => new SkillCache({ maxBytes: -1 })).to.throw(/maxBytes/);
  });

  it('[SKILL-025] metadata keys under io.modelcontextprotocol/ that nobody defines are ignored: the skill is served with them verbatim and loads', async () => {
    const extra = 'metadata:\n  io.modelcontextprotocol/future-key: "x"\n  owner: billing\n';
    const billing = await serve('Billing refunds', 'v1\n', extra);
    const reads: string[] = [];
    const host = await hostOf({ billing }, reads);
    try {
      const entry = await entryOf(host, 'billing');
      expect(entry.frontmatter['metadata']).to.deep.equal({ 'io.modelcontextprotocol/future-key': 'x', owner: 'billing' });
      const loaded = await host.loadSkill('billing', entry);
      expect(loaded.skillMd.text).to.include('io.modelcontextprotocol/future-key');
    } finally {
      await host.close();
      await billing.close();
    }
  });
});
