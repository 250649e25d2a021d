/* global process, console */
// Counts the scenarios of a conformance-next run (checks.json per scenario): passed / failed,
// FAILURE and WARNING checks, required vs not scored (from the CLI's summary text).
// Usage: node scripts/conformance-next-summary.cjs <results dir> <set>
import fs from 'node:fs';
import path from 'node:path';
const [dir, set] = process.argv.slice(2);
const rows = [];
// A scenario's folder holds checks.json; grouped scenarios (auth/...) are one folder deeper.
const dirs = [];
for (const d of fs.readdirSync(dir).sort()) {
  if (fs.existsSync(path.join(dir, d, 'checks.json'))) dirs.push(d);
  else if (fs.statSync(path.join(dir, d)).isDirectory()) for (const e of fs.readdirSync(path.join(dir, d)).sort()) dirs.push(`${d}/${e}`);
}
for (const d of dirs) {
  const file = path.join(dir, d, 'checks.json');
  if (!fs.existsSync(file)) continue;
  const name = d.replace(/^(server|client)-/, '').replace(/-\d{4}-\d\d-\d\dT.*$/, '');
  const checks = JSON.parse(fs.readFileSync(file, 'utf8'));
  const bad = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
  rows.push({ name, ok: bad.length === 0, bad });
}
// The CLI lists the not-scored scenarios (extension, pending, added after release) after its summary.
const suite = fs.existsSync(path.join(dir, 'suite.txt')) ? fs.readFileSync(path.join(dir, 'suite.txt'), 'utf8') : '';
const tail = suite.slice(Math.max(0, suite.indexOf('Not scored for')));
const notScored = new Set([...tail.matchAll(/^\s+[✓✗] (\S+) \(/gm)].map((m) => m[1]));
for (const r of rows) r.scored = !notScored.has(r.name);
const required = rows.filter((r) => r.scored);
const optional = rows.filter((r) => !r.scored);
console.log(`conformance ${set}: required ${required.filter((r) => r.ok).length}/${required.length} clean; not scored ${optional.filter((r) => r.ok).length}/${optional.length} clean`);
for (const r of rows.filter((r) => !r.ok)) {
  console.log(`  ${r.scored ? '' : '(not scored) '}${r.name}:`);
  for (const c of r.bad.slice(0, 6)) console.log(`    ${c.status} ${c.id}: ${(c.errorMessage ?? c.description ?? '').slice(0, 200)}`);
}
const allowWarnings = process.env.CONFORMANCE_ALLOW_WARNINGS === '1';
// ALL_CLEAN=1: the not-scored scenarios (extension, pending) must be clean too; ALSO_CLEAN=a,b: these
// not-scored ones must be clean (and must have run).
const alsoClean = (process.env.ALSO_CLEAN ?? '').split(',').filter(Boolean);
const missing = alsoClean.filter((name) => !rows.some((r) => r.name === name));
for (const name of missing) console.log(`  ${name}: required by ALSO_CLEAN but not run`);
const judged = process.env.ALL_CLEAN === '1' ? rows : rows.filter((r) => r.scored || alsoClean.includes(r.name));
const failing = judged.filter((r) => !r.ok && (!allowWarnings || r.bad.some((c) => c.status === 'FAILURE')));
const expected = Number(process.env.EXPECTED ?? 0);
process.exit(failing.length > 0 || missing.length > 0 || required.length < expected ? 1 : 0);
