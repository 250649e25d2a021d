// The host and skills: same-named skills from two servers are listed each with its server (a skill
// is the pair server + uri), nothing is read while listing, and a load reads only from the server
// that serves the skill.
import { expect } from 'chai';
import { createHost } from '../../lib/host/host.js';
import { tsArgs } from '../helpers/ts-child.js';

const FIXTURE = 'spec/fixtures/skills/skill-server.ts';

describe('host: skills per server', function () {
  this.timeout(60_000);

  it('[SKILL-020] [SKILL-021] [SKILL-029] [SKILL-030] [SKILL-059] [SKILL-080] [SKILL-081] [SKILL-082] [SKILL-084] [SKILL-085] lists same-named skills of two servers (both calling themselves skills-fixture) apart by their host labels, reads nothing, loads from the right one', async () => {
    const reads: string[] = [];
    const host = createHost({
      servers: {
        billing: { command: process.execPath, args: [...tsArgs(FIXTURE), 'Billing refunds'] },
        support: { command: process.execPath, args: [...tsArgs(FIXTURE), 'Support refunds'] },
      },
      stderr: 'ignore',
      onClient: (client, server) =>
        void client.frames$.subscribe((f) => {
          const frame = f.frame as { method?: string; params?: { uri?: string } };
          if (f.direction === 'out' && frame.method === 'resources/read') reads.push(`${server} ${frame.params?.uri}`);
        }),
    });
    try {
      await host.start();
      await host.whenReady();
      const skills = await host.listSkills();
      expect(skills.map((s) => [s.server, s.uri, s.frontmatter.description]).sort()).to.deep.equal([
        ['billing', 'skill://refunds/SKILL.md', 'Billing refunds'],
        ['support', 'skill://refunds/SKILL.md', 'Support refunds'],
      ]);
      expect(reads).to.deep.equal([]);
      const support = skills.find((s) => s.server === 'support')!;
      const loaded = await host.loadSkill('support', support);
      expect(loaded.skillMd.text).to.include('Body of Support refunds.');
      expect((await loaded.read('notes/POLICY.md')).text).to.equal('Policy of Support refunds.\n');
      expect(reads).to.deep.equal(['support skill://refunds/SKILL.md', 'support skill://refunds/notes/POLICY.md']);
      // The other server's entry does not verify against this server's content.
      const billing = skills.find((s) => s.server === 'billing')!;
      const crossed = await host.loadSkill('support', billing).catch((e: unknown) => e);
      expect((crossed as { reason?: string }).reason).to.be.oneOf(['size', 'digest']);
    } finally {
      await host.close();
    }
  });
});
