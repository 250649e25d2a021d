import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serveDirectory } from '../../lib/server-features/file-resources.js';
import { connect, makeServer, rejection } from './helpers.js';

describe('server features: a directory served as file:// resources', () => {
  let base: string;
  let docs: string;
  let url: string;
  const SECRET = 'the-secret-outside';

  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'mcp-files-'));
    docs = join(base, 'docs');
    mkdirSync(join(docs, 'sub'), { recursive: true });
    mkdirSync(join(base, 'docs-private'));
    writeFileSync(join(docs, 'guide.md'), '# Guide');
    writeFileSync(join(docs, 'sub', 'data.json'), '{"n":1}');
    writeFileSync(join(docs, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    writeFileSync(join(docs, '.env'), `TOKEN=${SECRET}`);
    writeFileSync(join(docs, 'big.txt'), 'x'.repeat(2_000));
    writeFileSync(join(base, 'secret.txt'), SECRET);
    writeFileSync(join(base, 'docs-private', 'key.txt'), SECRET);
    symlinkSync(join(base, 'secret.txt'), join(docs, 'escape.txt'));
    symlinkSync(join(docs, 'guide.md'), join(docs, 'sub', 'alias.md'));
    url = pathToFileURL(docs).href;
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  async function served(options: Parameters<typeof serveDirectory>[2] = {}) {
    const { mcp } = makeServer();
    serveDirectory(mcp, docs, { maxBytes: 1_000, ...options });
    return (await connect(mcp)).client;
  }

  it('[RES-038] serves files inside the directory and refuses every path that leads out of it (.., encoded .. and /, a sibling with the same prefix, a link out), and hidden files', async () => {
    const client = await served();
    expect(await client.request('resources/read', { uri: `${url}/guide.md` })).to.deep.equal({ contents: [{ uri: `${url}/guide.md`, mimeType: 'text/markdown', text: '# Guide' }] });
    expect(await client.request('resources/read', { uri: `${url}/sub/../sub/data.json` })).to.have.nested.property('contents[0].text', '{"n":1}');
    // A link that stays inside is followed.
    expect(await client.request('resources/read', { uri: `${url}/sub/alias.md` })).to.have.nested.property('contents[0].text', '# Guide');
    const png = (await client.request('resources/read', { uri: `${url}/logo.png` })) as { contents: { blob: string; mimeType: string }[] };
    expect(png.contents[0]).to.include({ mimeType: 'image/png', blob: Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64') });

    const outside = [
      `${url}/../secret.txt`,
      `${url}/sub/../../secret.txt`,
      `${url}/%2e%2e/secret.txt`,
      `${url}/%2E%2E/docs-private/key.txt`,
      `${url}/..%2fsecret.txt`,
      `${url}/sub%2f..%2f..%2fsecret.txt`,
      `${url}/../docs-private/key.txt`,
      `${url}/escape.txt`,
      `${url}/guide.md%00.png`,
    ];
    const refused = async (c: typeof client, uri: string) => {
      const e = await rejection(c.request('resources/read', { uri }));
      expect(e.code, uri).to.equal(-32602);
      expect(JSON.stringify(e), uri).to.not.include(SECRET);
    };
    for (const uri of [...outside, `${url}/.env`, `${url}/sub/../.env`]) await refused(client, uri);
    // The boundary holds on its own, with hidden files served too.
    const withHidden = await served({ includeHidden: true });
    for (const uri of outside) await refused(withHidden, uri);
    // Still serving after the attempts.
    expect(await client.request('resources/read', { uri: `${url}/guide.md` })).to.have.nested.property('contents[0].text', '# Guide');
  });

  it('lists the files inside (no hidden file, no link), says not found for a missing file or a folder, and refuses a file past maxBytes', async () => {
    const client = await served();
    const listed = (await client.request('resources/list', {})) as { resources: { uri: string; name: string }[] };
    expect(listed.resources.map((r) => r.name)).to.deep.equal(['big.txt', 'guide.md', 'logo.png', 'sub/data.json']);
    expect(listed.resources[1]!.uri).to.equal(`${url}/guide.md`);
    const templates = (await client.request('resources/templates/list', {})) as { resourceTemplates: { uriTemplate: string }[] };
    expect(templates.resourceTemplates[0]!.uriTemplate).to.equal(`${url}/{+path}`);
    expect((await rejection(client.request('resources/read', { uri: `${url}/missing.md` }))).code).to.equal(-32002);
    expect((await rejection(client.request('resources/read', { uri: `${url}/sub` }))).code).to.equal(-32002);
    const big = await rejection(client.request('resources/read', { uri: `${url}/big.txt` }));
    expect(big.code).to.equal(-32602);
    expect(big.message).to.contain('2000 bytes; at most 1000');
  });

  it('serves hidden files when asked to, with the MIME type given, and nothing is listed with maxListed 0', async () => {
    const client = await served({ includeHidden: true, maxListed: 0, mimeType: () => 'text/plain' });
    expect(await client.request('resources/read', { uri: `${url}/.env` })).to.have.nested.property('contents[0].text', `TOKEN=${SECRET}`);
    expect(((await client.request('resources/list', {})) as { resources: unknown[] }).resources).to.deep.equal([]);
  });
});
