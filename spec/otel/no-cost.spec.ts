import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** Load every package entry in a fresh node, and list what @opentelemetry modules were resolved. */
function loadEntries(args: string[] = []): Promise<{ stdout: string; otel: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'otel-probe-'));
  const log = join(dir, 'resolved.txt');
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', '--import', join(fixtures, 'resolve-probe.mjs'), join(fixtures, 'load-entries.ts'), ...args],
      { env: { ...process.env, RESOLVE_PROBE_LOG: log }, timeout: 120_000 },
      (err, stdout, stderr) => {
        try {
          if (err) return reject(new Error(`${err.message}\n${stderr}`));
          const resolved = readFileSync(log, 'utf8').split('\n');
          resolve({ stdout, otel: [...new Set(resolved.filter((u) => u.includes('/@opentelemetry/')))] });
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    );
  });
}

describe('otel: no cost when absent', function () {
  this.timeout(180_000);

  it('every package entry, mcp-actors/otel included, loads without importing @opentelemetry/api; mcpTelemetry() loads it on request', async () => {
    const plain = await loadEntries();
    expect(plain.stdout).to.contain('loaded .\n').and.contain('loaded ./otel\n').and.contain('loaded ./client\n').and.contain('loaded ./server\n');
    expect(plain.otel).to.deep.equal([]);
    // The probe does see it when it is imported: the check above can fail.
    const asked = await loadEntries(['--telemetry']);
    expect(asked.stdout).to.contain('telemetry\n');
    expect(asked.otel.some((u) => u.includes('/@opentelemetry/api/'))).to.equal(true);
  });
});
