/**
 * Summarizes a `.cpuprofile` (from `node --cpu-prof`): self time by category and the top
 * functions by self time, overall and in our code (dist/lib, dist/streams, dist/machines),
 * our functions mapped back to their TypeScript file:line through the source maps.
 *
 *   node dist/bench/cpuprofile-top.js <file.cpuprofile> [top=25]
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const file = process.argv[2];
if (!file) {
  console.error('usage: node dist/bench/cpuprofile-top.js <file.cpuprofile> [top=25]');
  process.exit(2);
}
const top = Number(process.argv[3] ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

// Self time per node: each sample's time is the delta to the next sample.
const selfUs = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i++) {
  const dt = profile.timeDeltas[i + 1] ?? 0;
  selfUs.set(profile.samples[i]!, (selfUs.get(profile.samples[i]!) ?? 0) + dt);
}
const nodeById = new Map(profile.nodes.map((n) => [n.id, n]));

function category(url: string, name: string): string {
  if (url === '') return name.startsWith('(') ? name : '(native/builtin)';
  if (/\/dist\/(lib|streams|machines)\//.test(url)) return 'ours';
  if (url.includes('/dist/bench/')) return 'bench harness';
  if (url.includes('/node_modules/rxjs/')) return 'rxjs';
  if (url.includes('/node_modules/xstate/')) return 'xstate';
  if (url.includes('/node_modules/@modelcontextprotocol/')) return 'sdk';
  if (url.includes('/node_modules/zod/')) return 'zod';
  if (url.startsWith('node:')) return 'node internals';
  return 'other';
}

const maps = new Map<string, SourceMap | null>();
function original(url: string, line: number, column: number): string | undefined {
  if (!url.startsWith('file://')) return undefined;
  let map = maps.get(url);
  if (map === undefined) {
    const path = fileURLToPath(url) + '.map';
    map = existsSync(path) ? new SourceMap(JSON.parse(readFileSync(path, 'utf8'))) : null;
    maps.set(url, map);
  }
  if (!map) return undefined;
  const e = map.findEntry(line, column) as { originalSource?: string; originalLine?: number };
  if (!e.originalSource) return undefined;
  const src = e.originalSource.replace(/^.*?\/(lib|streams|machines|bench)\//, '$1/');
  return `${src}:${(e.originalLine ?? 0) + 1}`;
}

function where(cf: CallFrame): string {
  if (cf.url === '') return '';
  return original(cf.url, cf.lineNumber, cf.columnNumber) ?? `${cf.url.replace(/^.*\/node_modules\//, '')}:${cf.lineNumber + 1}`;
}

interface Agg {
  name: string;
  where: string;
  category: string;
  us: number;
}
const byFunction = new Map<string, Agg>();
const byCategory = new Map<string, number>();
let total = 0;
for (const [id, us] of selfUs) {
  const node = nodeById.get(id);
  if (!node) continue;
  const cf = node.callFrame;
  const cat = category(cf.url, cf.functionName);
  total += us;
  byCategory.set(cat, (byCategory.get(cat) ?? 0) + us);
  const key = `${cf.functionName}|${cf.url}|${cf.lineNumber}|${cf.columnNumber}`;
  let agg = byFunction.get(key);
  if (!agg) byFunction.set(key, (agg = { name: cf.functionName || '(anonymous)', where: where(cf), category: cat, us: 0 }));
  agg.us += us;
}

const busy = total - (byCategory.get('(idle)') ?? 0);
const pct = (us: number): string => `${((us / busy) * 100).toFixed(1).padStart(5)}%`;
const ms = (us: number): string => `${(us / 1000).toFixed(0).padStart(6)} ms`;
console.log(`${file}: ${(total / 1e6).toFixed(2)} s sampled, ${(busy / 1e6).toFixed(2)} s busy (percentages of busy time)`);
console.log('\nSelf time by category:');
for (const [cat, us] of [...byCategory].sort((a, b) => b[1] - a[1])) {
  if (cat !== '(idle)') console.log(`  ${ms(us)} ${pct(us)}  ${cat}`);
}
const sorted = [...byFunction.values()].filter((a) => a.category !== '(idle)').sort((a, b) => b.us - a.us);
const show = (list: Agg[]): void => {
  for (const a of list.slice(0, top)) console.log(`  ${ms(a.us)} ${pct(a.us)}  ${a.category.padEnd(15)} ${a.name}  ${a.where}`);
};
console.log(`\nTop ${top} functions by self time:`);
show(sorted);
console.log(`\nTop ${top} of ours by self time:`);
show(sorted.filter((a) => a.category === 'ours'));
