// Agent skills (the io.modelcontextprotocol/skills extension): the server publishes a skill, the
// client lists it (reading nothing), loads it (SKILL.md verified against its entry), and reads a
// supporting file on demand, verified too. Both eras.
import { createClient, createMcpServer, SkillVerificationError } from 'mcp-actors';
import { createMemoryPair } from 'mcp-actors/streams';

const mcp = createMcpServer({ info: { name: 'docs', version: '1.0.0' } });
// From a directory instead: mcp.registerSkill(await readSkillDirectory('skills/pdf-processing'))
mcp.registerSkill({
  files: {
    'SKILL.md': '---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\nRead references/FORMS.md first.\n',
    'references/FORMS.md': '# Forms\nFill every field.\n',
  },
});
const [serverSide, clientSide] = createMemoryPair();
await mcp.connect(serverSide);
const client = createClient({ info: { name: 'host', version: '1.0.0' } });
await client.connect(clientSide);

const [entry] = await client.skills.listAll(); // entries only: names, descriptions, digests
try {
  const skill = await client.skills.load(entry!); // reads SKILL.md and checks size, digest, frontmatter
  console.log(skill.entry.frontmatter.name, skill.files.join(','));
  console.log((await skill.read('references/FORMS.md')).text?.split('\n')[0]);
} catch (e) {
  if (e instanceof SkillVerificationError) console.error(`not loaded (${e.reason}): ${e.message}`);
  else throw e;
}
await client.close();
