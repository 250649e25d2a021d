/**
 * What a library user pays for the package: the packed tarball (size, files), the install size,
 * the minified esbuild bundle of a stdio-only client and of an HTTP server, and the import time
 * of the root entry and of `mcp-actors/client` (fresh `node` processes, median of 7).
 *
 *   npx tsx scripts/measure-package.ts            # builds through `npm pack`
 *
 * Installs with --prefer-offline (the npm cache, else the npm registry) into a temporary directory, removed afterwards.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = process.cwd();
const work = mkdtempSync(join(tmpdir(), 'mcp-actors-measure-'));

function run(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function duBytes(path: string): number {
  let total = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) total += duBytes(full);
    else if (entry.isFile()) total += statSync(full).size;
  }
  return total;
}

const kB = (n: number): string => `${(n / 1000).toFixed(0)} kB`;

try {
  const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], root)) as Array<{
    filename: string;
    size: number;
    unpackedSize: number;
    entryCount: number;
    files: Array<{ path: string }>;
  }>;
  const app = join(work, 'app');
  run('mkdir', ['-p', app], work);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', type: 'module', private: true }));
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, packed!.filename)], app);

  const entries = {
    'stdio client': `import { createClient } from 'mcp-actors/client';
import { createStdioClientTransport } from 'mcp-actors/streams';
const client = createClient({ info: { name: 'c', version: '1' } });
await client.connect(createStdioClientTransport({ command: 'node', args: ['server.mjs'] }));
console.log(await client.listTools());`,
    'HTTP server': `import { createMcpServer, listen, text } from 'mcp-actors';
import { createStreamableHttpHandler } from 'mcp-actors/streams';
const mcp = createMcpServer({ info: { name: 's', version: '1' } });
mcp.registerTool('echo', { inputSchema: { type: 'object' } }, async (args) => ({ content: [text(JSON.stringify(args))] }));
console.log((await listen(createStreamableHttpHandler(mcp.server))).url);`,
  };
  const bundles: Record<string, { bytes: number; undici: number; ws: number }> = {};
  for (const [name, source] of Object.entries(entries)) {
    const file = join(app, `${name.replace(/\W/g, '-')}.mjs`);
    writeFileSync(file, source);
    const result = await build({
      entryPoints: [file],
      bundle: true,
      minify: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      write: false,
      metafile: true,
      outfile: join(work, 'out.mjs'),
      logLevel: 'silent',
    });
    const out = Object.values(result.metafile.outputs)[0]!;
    let undici = 0;
    let ws = 0;
    for (const [input, info] of Object.entries(out.inputs)) {
      if (input.includes('node_modules/undici/')) undici += info.bytesInOutput;
      if (input.includes('node_modules/ws/')) ws += info.bytesInOutput;
    }
    bundles[name] = { bytes: result.outputFiles[0]!.contents.byteLength, undici, ws };
  }

  const importMs = (specifier: string): number => {
    const samples: number[] = [];
    for (let i = 0; i < 7; i++) {
      const out = run(
        process.execPath,
        ['--input-type=module', '-e', `const t = performance.now(); await import('${specifier}'); console.log(performance.now() - t);`],
        app,
      );
      samples.push(Number(out.trim()));
    }
    samples.sort((a, b) => a - b);
    return samples[3]!;
  };

  const lines = [
    `tarball: ${kB(packed!.size)} packed, ${kB(packed!.unpackedSize)} unpacked, ${packed!.entryCount} files` +
      ` (${packed!.files.filter((f) => f.path.endsWith('.map')).length} source maps)`,
    `install (node_modules of an empty app): ${kB(duBytes(join(app, 'node_modules')))}`,
    ...Object.entries(bundles).map(([name, b]) => `bundle, ${name} (esbuild, minified): ${kB(b.bytes)} (undici ${kB(b.undici)}, ws ${kB(b.ws)})`),
    `import 'mcp-actors': ${importMs('mcp-actors').toFixed(0)} ms`,
    `import 'mcp-actors/client': ${importMs('mcp-actors/client').toFixed(0)} ms`,
  ];
  console.log(lines.join('\n'));
  if (process.argv.includes('--files')) console.log(packed!.files.map((f) => f.path).join('\n'));
  void readFileSync;
} finally {
  rmSync(work, { recursive: true, force: true });
}
