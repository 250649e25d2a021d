import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { checkLayers, describe as describeFindings } from '../../scripts/check-layers.js';

/** A small tree with the package's layout, in a temporary directory. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'layers-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('layers: the import rule (scripts/check-layers.ts)', () => {
  const roots: string[] = [];
  after(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

  it('reports an import that goes up a layer, type-only and import() types included', () => {
    const root = tree({
      'lib/jsonrpc/message.ts': "import type { Server } from '../server.js';\nexport type X = import('../cli/main.js').Y;\n",
      'lib/server.ts': 'export class Server {}\n',
      'lib/cli/main.ts': 'export type Y = number;\n',
      'machines/index.ts': '', 'streams/index.ts': '',
    });
    roots.push(root);
    const findings = checkLayers(root);
    expect(findings.upward.map((e) => `${e.from}>${e.to}`)).to.deep.equal([
      'lib/jsonrpc/message.ts>lib/server.ts',
      'lib/jsonrpc/message.ts>lib/cli/main.ts',
    ]);
    expect(findings.cycles).to.deep.equal([]);
  });

  it('reports every cycle between files, also inside one layer and through re-exports', () => {
    const root = tree({
      'lib/protocol/a.ts': "import { b } from './b.js';\nexport const a = 1;\n",
      'lib/protocol/b.ts': "export { c as b } from './c.js';\n",
      'lib/protocol/c.ts': "import type { a } from './a.js';\nexport const c = 2;\n",
      'lib/protocol/d.ts': "import { a } from './a.js';\n",
      'machines/index.ts': '', 'streams/index.ts': '',
    });
    roots.push(root);
    const findings = checkLayers(root);
    expect(findings.cycles).to.deep.equal([['lib/protocol/a.ts', 'lib/protocol/b.ts', 'lib/protocol/c.ts']]);
    expect(findings.upward).to.deep.equal([]);
  });

  it('reports a file that no layer holds, so a new file is placed on purpose', () => {
    const root = tree({ 'lib/nowhere.ts': '', 'machines/index.ts': '', 'streams/index.ts': '' });
    roots.push(root);
    expect(checkLayers(root).unplaced).to.deep.equal(['lib/nowhere.ts']);
  });

  it('finds in this repository no upward import, no import cycle and no unplaced file (no exceptions listed)', () => {
    expect(describeFindings(checkLayers('.'))).to.deep.equal([]);
  });
});
