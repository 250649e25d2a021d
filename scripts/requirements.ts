/**
 * The requirements table: every MUST / SHOULD (RFC 2119 keywords in upper case) of the protocol
 * texts, one row each, with the test that covers it.
 *
 *   npx tsx scripts/requirements.ts extract [--spec-dir DIR]
 *       scan the protocol texts (default ../shared/spec) and merge into docs/requirements/requirements.json,
 *       keeping every id ever assigned (matched by file + sentence, then by near-identical sentence)
 *   npx tsx scripts/requirements.ts render [--check]
 *       scan spec/**\/*.spec.ts (and the shared *.behaviour.ts) for [ID] tags in describe/it titles and write docs/requirements.md
 *       (--check: only compare with the file on disk); exit 1 when a test tags an unknown id, or when
 *       docs/requirements-explained.json explains an unknown, covered or repeated (same_as) id
 */
import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DATA_FILE = join(ROOT, 'docs', 'requirements', 'requirements.json');
export const DOC_FILE = join(ROOT, 'docs', 'requirements.md');
export const SPEC_ROOT = join(ROOT, 'spec');
/** Rows no test covers, each with why: `n/a: ...` (does not apply to this project) or `explained: ...` (met otherwise). */
export const EXPLAINED_FILE = join(ROOT, 'docs', 'requirements-explained.json');
const DEFAULT_SPEC_DIR = resolve(ROOT, '..', 'shared', 'spec');

/** The protocol texts, newest revision first: the first source of a group is the one shown. */
export const SOURCES = [
  '2025-11-25-client.md',
  'draft.md',
  '2025-06-18-basic.md',
  '2025-03-26-basic.md',
  '2024-11-05.txt',
  '2025-11-25-tasks.md',
  // Revision 2026-07-28 is a folder of pages (each page is a text of its own, named by its path).
  // It comes last so that a sentence it repeats from an older text keeps that text's row and id;
  // what is new in it gets new rows.
  '2026-07-28/',
  // The tasks extension of 2026-07-28 (io.modelcontextprotocol/tasks): after the core texts, so a
  // sentence it shares with the 2025-11-25 tasks text keeps that row.
  'extensions/tasks/tasks.md',
  // The skills extension (io.modelcontextprotocol/skills, SEP-2640): its published page.
  'extensions/skills/skills.md',
  // MCP Apps (io.modelcontextprotocol/ui, SEP-1865, stable 2026-01-26).
  'extensions/apps/apps.md',
  // The OpenTelemetry semantic conventions for MCP (spans, propagation in _meta, metrics).
  'otel/mcp-semconv.md',
] as const;

/** The pages of a folder source that carry requirements (changelog, notes and schema do not). */
export const FOLDER_PAGES: Record<string, readonly string[]> = {
  '2026-07-28/': [
    'basic/index.md',
    'basic/versioning.md',
    'basic/patterns/index.md',
    'basic/patterns/mrtr.md',
    'basic/patterns/subscriptions.md',
    'basic/patterns/cancellation.md',
    'basic/patterns/progress.md',
    'basic/transports/index.md',
    'basic/transports/stdio.md',
    'basic/transports/streamable-http.md',
    'basic/authorization/index.md',
    'basic/authorization/authorization-server-discovery.md',
    'basic/authorization/client-registration.md',
    'basic/authorization/security-considerations.md',
    'server/discover.md',
    'server/tools.md',
    'server/resources.md',
    'server/prompts.md',
    'server/utilities/caching.md',
    'server/utilities/completion.md',
    'server/utilities/logging.md',
    'server/utilities/pagination.md',
    'client/elicitation.md',
    'client/sampling.md',
    'client/roots.md',
  ],
};

/** Pages titled "Overview" get the area their folder is about (their first heading says nothing). */
const OVERVIEW_TITLE: Record<string, string> = {
  'basic/index.md': 'Base Protocol',
  'basic/patterns/index.md': 'Base Protocol',
  'basic/transports/index.md': 'Transports',
};

/** Every text file (folder sources expanded to their pages), in SOURCES order. */
export function textFiles(): string[] {
  return SOURCES.flatMap((f) => (f.endsWith('/') ? FOLDER_PAGES[f]!.map((p) => f + p) : [f]));
}

/** The SOURCES entry a text file belongs to. */
function sourceOf(file: string): string {
  const slash = file.indexOf('/');
  return slash > 0 && SOURCES.includes(file.slice(0, slash + 1) as (typeof SOURCES)[number]) ? file.slice(0, slash + 1) : file;
}

function readText(specDir: string, file: string): string {
  const text = readFileSync(join(specDir, file), 'utf8');
  const source = sourceOf(file);
  const title = source === file ? undefined : OVERVIEW_TITLE[file.slice(source.length)];
  return title === undefined ? text : text.replace(/^# Overview$/m, `# ${title}`);
}

/** Areas in table order, with the id prefix each uses. */
export const AREAS: ReadonlyArray<readonly [area: string, prefix: string]> = [
  ['base', 'BASE'],
  ['lifecycle', 'LIFE'],
  ['transports', 'TRAN'],
  ['stdio', 'STDIO'],
  ['streamable-http', 'HTTP'],
  ['http-sse', 'SSE'],
  ['authorization', 'AUTH'],
  ['security', 'SEC'],
  ['cancellation', 'CANCEL'],
  ['ping', 'PING'],
  ['progress', 'PROG'],
  ['tools', 'TOOL'],
  ['resources', 'RES'],
  ['prompts', 'PROMPT'],
  ['completion', 'COMPL'],
  ['logging', 'LOG'],
  ['pagination', 'PAGE'],
  ['roots', 'ROOTS'],
  ['sampling', 'SAMP'],
  ['elicitation', 'ELICIT'],
  ['tasks', 'TASK'],
  // 2026-07-28
  ['mrtr', 'MRTR'],
  ['subscriptions', 'SUB'],
  ['discover', 'DISC'],
  ['caching', 'CACHE'],
  // extensions
  ['skills', 'SKILL'],
  ['apps', 'APPS'],
  // OpenTelemetry
  ['otel', 'OTEL'],
];
const PREFIX = new Map(AREAS);

export interface Requirement {
  id: string;
  area: string;
  keyword: string;
  file: string;
  section: string;
  line: number;
  sentence: string;
  /** id of the row (from the newest revision) this one repeats, near-identically */
  same_as?: string;
  /** no longer found by the extractor; kept so that the id is never reused */
  retired?: true;
}

interface DataFile {
  about: string;
  requirements: Requirement[];
}

// ---------------------------------------------------------------------------------------------
// keywords and sentences

const KEYWORD_RE = /\b(MUST NOT|MUST|SHALL NOT|SHALL|SHOULD NOT|SHOULD|NOT RECOMMENDED|RECOMMENDED|REQUIRED)\b/g;
const MUST_LEVEL = new Set(['MUST', 'MUST NOT', 'SHALL', 'SHALL NOT', 'REQUIRED']);
export const MAX_QUOTE = 200;

/** Keywords used in the RFC 2119 sense: upper case, not inside a code span, not quoted ("MUST"). */
export function keywordsOf(text: string): { keyword: string; index: number }[] {
  const masked = text.replace(/`[^`]*`/g, (m) => ' '.repeat(m.length));
  const found: { keyword: string; index: number }[] = [];
  for (const m of masked.matchAll(KEYWORD_RE)) {
    const before = masked[m.index - 1];
    const after = masked[m.index + m[0].length];
    if (before === '"' || after === '"' || before === '\u201c' || after === '\u201d') continue;
    found.push({ keyword: m[1], index: m.index });
  }
  return found;
}

/** Inline markdown to plain text; code spans keep their backticks. */
export function cleanInline(text: string): string {
  const spans: string[] = [];
  let s = text.replace(/`[^`]*`/g, (m) => `\ue000${spans.push(m) - 1}\ue001`);
  s = s
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)/g, '$1')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/<\/?(?:[A-Z][A-Za-z]*|div|span|p|br|iframe|img|a|details|summary|sup|sub|b|i|em|strong)\b[^>]*>/g, ' ')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/__([^_]+)__/g, '$1')
    .replace(/(^|[^\w*])\*([^*\s][^*]*?)\*(?![\w*])/g, '$1$2')
    .replace(/(^|[^\w])_([^_\s][^_]*?)_(?!\w)/g, '$1$2')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, '$1')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\u00a0/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return s.replace(/\ue000(\d+)\ue001/g, (_m, i: string) => spans[Number(i)]);
}

const ABBREVIATIONS = /(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|Sec|No|Fig)\.)$/i;

/** Split plain text into sentences (code spans and parentheses are never split). */
export function sentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let depth = 0;
  let code = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '`') code = !code;
    if (code) continue;
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if ((c === '.' || c === '!' || c === '?') && depth === 0) {
      let j = i + 1;
      while (text[j] === '"' || text[j] === "'" || text[j] === ')') j++;
      if (text[j] !== ' ') continue;
      const next = text.slice(j + 1);
      if (!/^[A-Z0-9`"'*_[(]/.test(next)) continue;
      const head = text.slice(start, i + 1);
      if (ABBREVIATIONS.test(head)) continue;
      out.push(text.slice(start, j).trim());
      start = j + 1;
    }
  }
  const rest = text.slice(start).trim();
  if (rest) out.push(rest);
  return out.filter((s) => s.length > 0);
}

/** Trim a quote to MAX_QUOTE characters at word boundaries, keeping the first keyword in view. */
export function clip(text: string, max = MAX_QUOTE): string {
  if (text.length <= max) return text;
  const kw = keywordsOf(text)[0];
  const kwEnd = kw ? kw.index + kw.keyword.length : 0;
  if (kwEnd <= max - 40) {
    const cut = text.lastIndexOf(' ', max - 1);
    return text.slice(0, cut > max / 2 ? cut : max - 1).replace(/[\s,;:]+$/, '') + '\u2026';
  }
  let from = text.indexOf(' ', Math.max(0, kw.index - 90)) + 1;
  if (from <= 0 || from > kw.index) from = kw.index;
  const room = max - 2;
  let to = from + room;
  if (to < text.length) {
    const cut = text.lastIndexOf(' ', to);
    to = cut > kwEnd ? cut : to;
  }
  return '\u2026' + text.slice(from, to).trim().replace(/[\s,;:]+$/, '') + (to < text.length ? '\u2026' : '');
}

// ---------------------------------------------------------------------------------------------
// block model shared by the markdown and the plain-text parser

interface Block {
  kind: 'para' | 'item' | 'cell' | 'code' | 'heading';
  text: string; // already cleaned
  line: number;
  section: string[];
  /** the sentence ending in ':' that introduces this list item */
  lead?: Block;
  /** set on a block whose final ':' sentence introduces a list */
  introducesList?: boolean;
  /** the source lines of a paragraph or item, to give each sentence its own line number */
  raw?: [line: number, text: string][];
}

export interface Extracted {
  file: string;
  section: string;
  line: number;
  keyword: string;
  keywords: string[];
  sentence: string; // clipped quote
  full: string; // unclipped
  core: string; // the sentence without the list lead, if it has a keyword of its own: compared across revisions
  areaPath: string[];
}

function lastSentence(text: string): string {
  const all = sentences(text);
  return all[all.length - 1] ?? '';
}

function endsWithColon(text: string): boolean {
  return /:\s*$/.test(text);
}

/** The source line where a sentence of a block starts (the block's first line if unsure). */
function lineOf(b: Block, sentence: string): number {
  if (!b.raw || b.raw.length < 2) return b.line;
  const words = normalize(sentence).slice(0, 4);
  const joined = b.raw.map(([, t]) => normalize(cleanInline(t)));
  for (let i = 0; i < joined.length; i++) {
    // the sentence's first words, possibly running over into the next line
    const tail = [...joined[i], ...(joined[i + 1] ?? [])];
    for (let k = 0; k < joined[i].length; k++) {
      if (words.every((w, j) => tail[k + j] === w)) return b.raw[i][0];
    }
  }
  return b.line;
}

/** Turn blocks into requirement sentences. */
function emit(file: string, blocks: Block[]): Extracted[] {
  const out: Extracted[] = [];
  const push = (b: Block, text: string, core: string) => {
    const kws = keywordsOf(text);
    if (kws.length === 0) return;
    out.push({
      file,
      section: b.section.join(' > '),
      line: lineOf(b, core),
      keyword: kws[0].keyword,
      keywords: kws.map((k) => k.keyword),
      sentence: clip(text),
      full: text,
      core: keywordsOf(core).length > 0 ? core : text,
      areaPath: b.section,
    });
  };
  for (const b of blocks) {
    if (b.kind === 'code' || b.kind === 'heading') continue;
    const own = sentences(b.text);
    const ctx = b.lead ? lastSentence(b.lead.text) : '';
    const ctxHasKeyword = ctx !== '' && keywordsOf(ctx).length > 0;
    // "`uri`: Unique identifier for the root. This MUST be ..." keeps its label
    const label = b.kind === 'item' ? /^([^:]{1,30}): /.exec(own[0] ?? '')?.[1] : undefined;
    const withCtx = (s: string, i: number) => {
      const subject = label && i > 0 ? `${label}: \u2026 ${s}` : s;
      if (!ctx) return subject;
      // a lead without a keyword is context only: dropped when it would not fit
      const subjectless = keywordsOf(s)[0]?.index === 0; // "1. **MUST** be included in ..."
      const fluff = ctx.split(' ').length < 3; // "Therefore:", "Specifically:"
      if (!ctxHasKeyword && !subjectless && (fluff || subject !== s || ctx.length + s.length + 1 > MAX_QUOTE)) return subject;
      return `${ctx} ${subject}`;
    };
    let emitted = false;
    own.forEach((s, i) => {
      if (keywordsOf(s).length === 0) return;
      // "Servers MUST:" followed by a list: the items carry it
      if (i === own.length - 1 && b.introducesList && endsWithColon(s)) return;
      push(b, withCtx(s, i), s);
      emitted = true;
    });
    // a plain list item under "Servers MUST:"
    if (!emitted && ctxHasKeyword) push(b, withCtx(b.text, 0), b.text);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// markdown

const LIST_RE = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;
const TAG_ONLY_RE = /^\s*(<\/?[A-Za-z][^>]*>\s*)+$/;

function pageTitleFromPath(mdxPath: string, title: string): string {
  if (mdxPath === 'basic/index.mdx') return 'Base Protocol';
  if (mdxPath === 'server/index.mdx') return 'Server Features';
  if (mdxPath === 'client/index.mdx') return 'Client Features';
  return title;
}

export function parseMarkdown(source: string): Block[] {
  const lines = source.split(/\r?\n/);
  const blocks: Block[] = [];
  let stack: string[] = [];
  let para: { lines: string[]; line: number } | null = null;
  let items: { indent: number; block: Block; contentIndent: number; numbered: boolean }[] = [];
  let item: { block: Block; raw: string[]; contentIndent: number } | null = null;
  let blankSince = false;
  let inList = false;
  let listLead: Block | undefined;

  const section = () => stack.filter((s) => s !== undefined && s !== '');
  const flushPara = () => {
    if (!para) return;
    const raw = para.lines.map((t, i): [number, string] => [para!.line + i, t]);
    blocks.push({ kind: 'para', text: cleanInline(para.lines.join(' ')), line: para.line, section: section(), raw });
    para = null;
  };
  const flushItem = () => {
    if (!item) return;
    item.block.text = cleanInline(item.raw.join(' '));
    item = null;
  };
  const endList = () => {
    flushItem();
    items = [];
    inList = false;
  };
  const boundary = () => {
    flushPara();
    flushItem();
  };
  const setHeading = (level: number, text: string) => {
    endList();
    flushPara();
    stack = stack.slice(0, level - 1);
    while (stack.length < level - 1) stack.push('');
    const title = cleanInline(text).replace(/`/g, '');
    // the base protocol page is titled "Overview" in some texts
    stack.push(level === 1 && title === 'Overview' ? 'Base Protocol' : title);
  };

  for (let n = 0; n < lines.length; n++) {
    const raw = lines[n];
    const lineNo = n + 1;
    const fileMark = /^--- START OF FILE (.*) ---$/.exec(raw);
    if (fileMark) {
      endList();
      flushPara();
      stack = [];
      // front matter
      let title = fileMark[1];
      if (lines[n + 1] === '---') {
        let k = n + 2;
        for (; k < lines.length && lines[k] !== '---'; k++) {
          const t = /^title:\s*(.*)$/.exec(lines[k]);
          if (t) title = t[1].replace(/^["']|["']$/g, '');
        }
        n = k;
      }
      stack = [pageTitleFromPath(fileMark[1], title)];
      continue;
    }
    if (/^--- END OF FILE/.test(raw)) {
      endList();
      flushPara();
      continue;
    }
    const fence = /^(\s*)(```+|~~~+)/.exec(raw);
    if (fence) {
      boundary();
      const marker = fence[2];
      let k = n + 1;
      while (k < lines.length && !lines[k].trimStart().startsWith(marker)) k++;
      blocks.push({ kind: 'code', text: '', line: lineNo, section: section() });
      n = k;
      // a fence inside a list item (indented) keeps the list open
      if (fence[1].length === 0) endList();
      blankSince = false;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(raw);
    if (heading) {
      setHeading(heading[1].length, heading[2]);
      blocks.push({ kind: 'heading', text: '', line: lineNo, section: section() });
      continue;
    }
    if (raw.trim() === '' || TAG_ONLY_RE.test(raw)) {
      flushPara();
      if (TAG_ONLY_RE.test(raw)) endList();
      blankSince = true;
      continue;
    }
    if (/^\s*\|/.test(raw)) {
      endList();
      flushPara();
      const cells = raw.trim().replace(/^\||\|$/g, '').split(/(?<!\\)\|/).map((c) => cleanInline(c));
      if (cells.every((c) => /^:?-*:?$/.test(c))) continue; // separator row
      const rowBlocks = cells.map((c) => ({ kind: 'cell' as const, text: c, line: lineNo, section: section() }));
      for (let i = 1; i < rowBlocks.length; i++) {
        if (keywordsOf(rowBlocks[i].text).length > 0 && rowBlocks[0].text) {
          rowBlocks[i].text = `${rowBlocks[0].text}: ${rowBlocks[i].text}`;
        }
      }
      blocks.push(...rowBlocks);
      continue;
    }
    let text = raw;
    const quote = /^\s*>\s?(.*)$/.exec(raw);
    if (quote) text = quote[1];
    const li = quote ? null : LIST_RE.exec(raw);
    if (li) {
      flushPara();
      flushItem();
      const indent = li[1].length;
      const numbered = /\d/.test(li[2]);
      // Some texts lost the indentation of nested lists: a bullet right under "4. If the input is ...:"
      // at the same indentation is its child.
      while (items.length) {
        const top = items[items.length - 1];
        if (top.indent < indent) break;
        if (top.indent === indent && !numbered && top.numbered && endsWithColon(top.block.text)) break;
        items.pop();
      }
      if (!inList) {
        const prev = blocks[blocks.length - 1];
        listLead = prev && (prev.kind === 'para' || prev.kind === 'item') && endsWithColon(prev.text) ? prev : undefined;
      }
      const lead = items.length ? items[items.length - 1].block : listLead;
      const block: Block = { kind: 'item', text: '', line: lineNo, section: section() };
      if (lead && endsWithColon(lead.text)) {
        block.lead = lead;
        lead.introducesList = true;
      }
      blocks.push(block);
      const contentIndent = indent + li[2].length + 1;
      items.push({ indent, block, contentIndent, numbered });
      item = { block, raw: [li[3]], contentIndent };
      block.raw = [[lineNo, li[3]]];
      inList = true;
      blankSince = false;
      continue;
    }
    // continuation of a list item: lazy (no blank line) or indented after a blank line
    if (inList && items.length) {
      const indent = /^\s*/.exec(raw)![0].length;
      const top = items[items.length - 1];
      if (!blankSince && item) {
        item.raw.push(text.trim());
        item.block.raw?.push([lineNo, text.trim()]);
        continue;
      }
      if (blankSince && indent >= Math.min(top.contentIndent, 2)) {
        // a new paragraph inside the innermost item that is indented enough
        while (items.length > 1 && indent < items[items.length - 1].contentIndent) items.pop();
        const owner = items[items.length - 1];
        if (!item || item.block !== owner.block) {
          flushItem();
          item = { block: owner.block, raw: [owner.block.text], contentIndent: owner.contentIndent };
        }
        item.raw.push(text.trim());
        item.block.raw?.push([lineNo, text.trim()]);
        blankSince = false;
        continue;
      }
      endList();
    }
    if (!para) para = { lines: [], line: lineNo };
    para.lines.push(text.trim());
    blankSince = false;
  }
  endList();
  flushPara();
  return blocks;
}

// ---------------------------------------------------------------------------------------------
// the plain-text rendering of 2024-11-05 (no markup: headings are bare lines, lists are indented)

/** Headings of the markdown texts, by page title, with their level; used to recognise bare-line headings. */
export function headingIndex(markdownSources: string[]): { all: Set<string>; byPage: Map<string, Map<string, number>> } {
  const all = new Set<string>();
  const byPage = new Map<string, Map<string, number>>();
  for (const src of markdownSources) {
    let page = '';
    let fm = false;
    for (const line of src.split(/\r?\n/)) {
      const t = /^title:\s*(.*)$/.exec(line);
      if (/^--- START OF FILE/.test(line)) fm = true;
      if (fm && t) {
        page = t[1].toLowerCase();
        all.add(page);
        fm = false;
        continue;
      }
      const h = /^(#{1,6})\s+(.*?)\s*$/.exec(line);
      if (!h) continue;
      const text = cleanInline(h[2]).replace(/`/g, '').toLowerCase();
      all.add(text);
      if (h[1].length === 1) page = text;
      if (!byPage.has(page)) byPage.set(page, new Map());
      if (!byPage.get(page)!.has(text)) byPage.get(page)!.set(text, h[1].length);
    }
  }
  return { all, byPage };
}

const TXT_EXTRA_HEADINGS = ['http with sse', 'versioning', 'utilities', 'server features', 'client features', 'behavior requirements'];

export function parseText(source: string, headings: ReturnType<typeof headingIndex>): Block[] {
  const lines = source.split(/\r?\n/).map((l) => l.replace(/\s+$/, ''));
  const norm = (l: string) => (/^\t+[^\t]*$/.test(l) ? l.replace(/^\t+/, '') : l);
  const blocks: Block[] = [];
  let stack: string[] = [];
  let page = '';
  let items: { indent: number; block: Block }[] = [];
  let listLead: Block | undefined;
  const known = new Set([...headings.all, ...TXT_EXTRA_HEADINGS]);
  const isCandidate = (l: string) =>
    l.length > 0 && l.length <= 60 && !/^\s/.test(l) && !l.includes('\t') && !/[.:;,!?]$/.test(l) && !/^[{}[\]"'(]/.test(l);

  for (let n = 0; n < lines.length; n++) {
    const l = norm(lines[n]);
    const next = norm(lines[n + 1] ?? '');
    const lineNo = n + 1;
    if (l.trim() === '') continue;
    if (/^Protocol Revision:/.test(l)) continue;
    // page title: the line before "Protocol Revision", or a line repeated (breadcrumb + title)
    if (next === l && isCandidate(l)) continue; // a page title is printed twice: keep the second
    if (isCandidate(l) && (/^Protocol Revision:/.test(next) || norm(lines[n - 1] ?? '') === l)) {
      page = l;
      stack = [l];
      items = [];
      listLead = undefined;
      blocks.push({ kind: 'heading', text: '', line: lineNo, section: [...stack] });
      continue;
    }
    if (l === '{' || l === '[') {
      let k = n + 1;
      while (k < lines.length && !/^[}\]],?$/.test(norm(lines[k]))) k++;
      blocks.push({ kind: 'code', text: '', line: lineNo, section: [...stack] });
      items = [];
      n = k;
      continue;
    }
    if (isCandidate(l) && known.has(l.toLowerCase())) {
      const level = headings.byPage.get(page.toLowerCase())?.get(l.toLowerCase()) ?? 2;
      stack = stack.slice(0, Math.max(1, level - 1));
      while (stack.length < level - 1) stack.push('');
      stack.push(l);
      items = [];
      blocks.push({ kind: 'heading', text: '', line: lineNo, section: stack.filter(Boolean) });
      continue;
    }
    const section = stack.filter(Boolean);
    if (l.includes('\t')) {
      items = [];
      const cells = l.split('\t').map((c) => cleanInline(c));
      for (let i = 0; i < cells.length; i++) {
        const text = i > 0 && cells[0] && keywordsOf(cells[i]).length ? `${cells[0]}: ${cells[i]}` : cells[i];
        blocks.push({ kind: 'cell', text, line: lineNo, section });
      }
      continue;
    }
    const indent = /^ */.exec(l)![0].length;
    const text = cleanInline(l);
    if (indent === 0) {
      items = [];
      blocks.push({ kind: 'para', text, line: lineNo, section });
      continue;
    }
    while (items.length && items[items.length - 1].indent >= indent) items.pop();
    const prev = blocks[blocks.length - 1];
    if (prev && prev.kind !== 'item') listLead = prev.kind === 'para' ? prev : undefined;
    const lead: Block | undefined = items.length ? items[items.length - 1].block : listLead;
    const block: Block = { kind: 'item', text, line: lineNo, section };
    if (lead && endsWithColon(lead.text)) {
      block.lead = lead;
      lead.introducesList = true;
    }
    blocks.push(block);
    items.push({ indent, block });
  }
  return blocks;
}

// ---------------------------------------------------------------------------------------------
// areas

const AREA_BY_HEADING: Record<string, string> = {
  'streamable http': 'streamable-http',
  'http with sse': 'http-sse',
  'backwards compatibility': 'http-sse',
  stdio: 'stdio',
  'custom transports': 'transports',
  transports: 'transports',
  authorization: 'authorization',
  auth: 'authorization',
  'security best practices': 'security',
  'security and trust & safety': 'security',
  cancellation: 'cancellation',
  ping: 'ping',
  progress: 'progress',
  lifecycle: 'lifecycle',
  versioning: 'lifecycle',
  'versioning and compatibility': 'lifecycle',
  'multi round-trip requests': 'mrtr',
  subscriptions: 'subscriptions',
  discovery: 'discover',
  caching: 'caching',
  'authorization server discovery': 'authorization',
  'client registration': 'authorization',
  'authorization security considerations': 'authorization',
  tools: 'tools',
  resources: 'resources',
  prompts: 'prompts',
  completion: 'completion',
  logging: 'logging',
  pagination: 'pagination',
  roots: 'roots',
  sampling: 'sampling',
  elicitation: 'elicitation',
  tasks: 'tasks',
  'base protocol': 'base',
  architecture: 'base',
  specification: 'base',
};

/** The deepest heading of the path that names an area; stdio/HTTP under Shutdown stay lifecycle. */
export function areaOf(path: string[]): string {
  const lower = path.map((p) => p.toLowerCase());
  // Every row of the skills page is the extension's, whatever its subheading (Resources, Names...).
  if (lower[0] === 'skills') return 'skills';
  if (lower[0]?.includes('mcp apps')) return 'apps';
  if (lower[0]?.includes('semantic conventions for model context protocol')) return 'otel';
  if (lower.includes('shutdown')) return 'lifecycle';
  for (let i = lower.length - 1; i >= 0; i--) {
    const area = AREA_BY_HEADING[lower[i]];
    if (area) return area;
  }
  return 'base';
}

// ---------------------------------------------------------------------------------------------
// extraction

const EXCLUDED_SECTIONS = new Set(['key changes']);

/** The requirement sentences of one text (markdown, or the plain-text layout of 2024-11-05 when `file` ends in .txt). */
export function extractText(file: string, source: string, headings = headingIndex([])): Extracted[] {
  const blocks = file.endsWith('.txt') ? parseText(source, headings) : parseMarkdown(source);
  return emit(file, blocks).filter((e) => !e.areaPath.some((h) => EXCLUDED_SECTIONS.has(h.toLowerCase())));
}

export function extractAll(specDir: string): Extracted[] {
  const texts = new Map<string, string>();
  const files = textFiles();
  for (const f of files) texts.set(f, titled(readText(specDir, f)));
  const headings = headingIndex(files.filter((f) => f.endsWith('.md')).map((f) => texts.get(f)!));
  const out: Extracted[] = [];
  for (const f of files) {
    const src = texts.get(f)!;
    const seen = new Set<string>();
    // (the changelog talks about keywords, "Change SHOULD to MUST in ...", without requiring anything: skipped)
    for (const e of extractText(f, src, headings)) {
      // a text may repeat a page (2024-11-05 has the base protocol page twice): one row per sentence and section
      const key = `${e.section}\u0000${e.sentence}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(e);
    }
  }
  return out;
}

/** A page whose title is in front matter (`title: Tasks`) gets it as its top heading, which names its area. */
function titled(source: string): string {
  const m = /^---\n(?:[^\n]*\n)*?title: *([^\n]+)\n(?:[^\n]*\n)*?---\n/.exec(source);
  return m ? `# ${m[1]!.trim()}\n${source.slice(m[0].length)}` : source;
}

/** Lower-case words, no markup or punctuation: what "the same sentence" compares. */
export function normalize(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[`*_"'\u2026]/g, '')
    .replace(/[^a-z0-9/:.@-]+/g, ' ')
    .replace(/[.:]+(\s|$)/g, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
}

function wordDistance(a: string[], b: string[]): number {
  const prev = new Array<number>(b.length + 1);
  const cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    for (let j = 0; j <= b.length; j++) prev[j] = cur[j];
  }
  return prev[b.length];
}

/** 1 for the same words, 0 for nothing in common. */
export function similarity(a: string, b: string): number {
  const wa = normalize(a);
  const wb = normalize(b);
  const max = Math.max(wa.length, wb.length);
  if (max === 0) return 1;
  return 1 - wordDistance(wa, wb) / max;
}

export const SAME_AS_THRESHOLD = 0.85;

function nextNumber(existing: Requirement[], prefix: string): number {
  let max = 0;
  for (const r of existing) {
    const m = /^([A-Z]+)-(\d+)$/.exec(r.id);
    if (m && m[1] === prefix) max = Math.max(max, Number(m[2]));
  }
  return max + 1;
}

export function merge(previous: Requirement[], extracted: Extracted[]): Requirement[] {
  const result: Requirement[] = [];
  const unmatched = new Set(previous);
  const assigned = new Map<Extracted, Requirement>();
  const claim = (e: Extracted, candidates: (old: Requirement) => number) => {
    let best: Requirement | undefined;
    let bestScore = 0;
    for (const old of unmatched) {
      const score = candidates(old);
      if (score > bestScore) {
        best = old;
        bestScore = score;
      }
    }
    if (best) {
      unmatched.delete(best);
      assigned.set(e, best);
    }
  };
  // 1. same file, section and sentence; 2. same file and sentence, same area (the headings changed)
  for (const e of extracted) claim(e, (old) => Number(old.file === e.file && old.section === e.section && old.sentence === e.sentence));
  for (const e of extracted) {
    if (assigned.has(e)) continue;
    claim(e, (old) => Number(old.file === e.file && old.sentence === e.sentence && old.area === areaOf(e.areaPath)));
  }
  // 3. same file and area, near-identical sentence (the extractor or the text changed a little)
  for (const e of extracted) {
    if (assigned.has(e)) continue;
    const area = areaOf(e.areaPath);
    claim(e, (old) => {
      if (old.file !== e.file || old.area !== area) return 0;
      const score = similarity(old.sentence, e.sentence);
      return score >= SAME_AS_THRESHOLD ? score + (old.section === e.section ? 0.01 : 0) : 0;
    });
  }
  // 3. new ids, newest revision first, in text order
  const all = [...previous];
  for (const e of extracted) {
    const old = assigned.get(e);
    const area = old?.area ?? areaOf(e.areaPath);
    const prefix = PREFIX.get(area) ?? 'BASE';
    const id = old?.id ?? `${prefix}-${String(nextNumber(all, prefix)).padStart(3, '0')}`;
    const r: Requirement = { id, area, keyword: e.keyword, file: e.file, section: e.section, line: e.line, sentence: e.sentence };
    if (!old) all.push(r);
    result.push(r);
  }
  // 4. the same requirement in several revisions: group, the newest revision leads
  const entries = extracted.map((e, i) => ({ e, r: result[i], words: normalize(e.core), kw: keywordsOf(e.core).map((k) => k.keyword).join(',') }));
  const parent = entries.map((_, i) => i);
  const files = entries.map((x) => new Set([x.e.file]));
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const pairs: { i: number; j: number; score: number }[] = [];
  for (let i = 0; i < entries.length; i++) {
    for (let j = i + 1; j < entries.length; j++) {
      const a = entries[i];
      const b = entries[j];
      if (a.e.file === b.e.file || a.kw !== b.kw || a.r.area !== b.r.area) continue;
      const max = Math.max(a.words.length, b.words.length);
      if (Math.abs(a.words.length - b.words.length) > max * (1 - SAME_AS_THRESHOLD)) continue;
      const score = 1 - wordDistance(a.words, b.words) / max;
      if (score >= SAME_AS_THRESHOLD) pairs.push({ i, j, score });
    }
  }
  // best matches first; a group never holds two sentences of the same text
  pairs.sort((x, y) => y.score - x.score || x.i - y.i || x.j - y.j);
  for (const { i, j } of pairs) {
    const gi = find(i);
    const gj = find(j);
    if (gi === gj || [...files[gj]].some((f) => files[gi].has(f))) continue;
    parent[gj] = gi;
    for (const f of files[gj]) files[gi].add(f);
  }
  const order = (f: string) => SOURCES.indexOf(sourceOf(f) as (typeof SOURCES)[number]);
  const groups = new Map<number, typeof entries>();
  entries.forEach((x, i) => {
    const g = find(i);
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g)!.push(x);
  });
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    members.sort((a, b) => order(a.e.file) - order(b.e.file) || a.e.line - b.e.line);
    for (const m of members.slice(1)) m.r.same_as = members[0].r.id;
  }
  for (const old of unmatched) {
    const kept: Requirement = { ...old, retired: true };
    delete kept.same_as;
    result.push(kept);
  }
  return sortRequirements(result);
}

function sortRequirements(list: Requirement[]): Requirement[] {
  const areaOrder = new Map(AREAS.map(([a], i) => [PREFIX.get(a)!, i]));
  const key = (id: string) => {
    const m = /^([A-Z]+)-(\d+)$/.exec(id);
    return m ? { p: areaOrder.get(m[1]) ?? 99, prefix: m[1], n: Number(m[2]) } : { p: 100, prefix: id, n: 0 };
  };
  return [...list].sort((a, b) => {
    const x = key(a.id);
    const y = key(b.id);
    return x.p - y.p || x.prefix.localeCompare(y.prefix) || x.n - y.n;
  });
}

export function loadData(file = DATA_FILE): Requirement[] {
  if (!existsSync(file)) return [];
  return (JSON.parse(readFileSync(file, 'utf8')) as DataFile).requirements;
}

export function saveData(list: Requirement[], file = DATA_FILE): void {
  mkdirSync(dirname(file), { recursive: true });
  const data: DataFile = {
    about:
      'Every MUST/SHOULD of the protocol texts. Made by `npx tsx scripts/requirements.ts extract`; ids are never renumbered or reused. ' +
      'same_as: the same sentence (near-identical) in a newer revision, whose id the table shows. retired: no longer found in the texts.',
    requirements: list.map((r) => {
      const o: Requirement = { id: r.id, area: r.area, keyword: r.keyword, file: r.file, section: r.section, line: r.line, sentence: r.sentence };
      if (r.same_as) o.same_as = r.same_as;
      if (r.retired) o.retired = true;
      return o;
    }),
  };
  writeFileSync(file, JSON.stringify(data, null, 2) + '\n');
}

// ---------------------------------------------------------------------------------------------
// test tags

export interface Tag {
  id: string;
  file: string; // posix path relative to the repository
  title: string;
  line: number;
}

export const TAG_RE = /\[([A-Z][A-Z0-9]*-\d{3,})\]/g;

function listSpecFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listSpecFiles(p));
    // `*.behaviour.ts`: specs shared by several spec files (one behaviour, several implementations).
    else if (entry.name.endsWith('.spec.ts') || entry.name.endsWith('.behaviour.ts')) out.push(p);
  }
  return out.sort();
}

/** The string literals that open a describe/it/context/specify/test call, comments skipped. */
export function titlesOf(source: string): { title: string; line: number }[] {
  const out: { title: string; line: number }[] = [];
  let i = 0;
  let line = 1;
  const call = /\b(?:describe|it|context|specify|test|suite)(?:\.(?:only|skip))?\s*\(\s*$/;
  let code = '';
  while (i < source.length) {
    const c = source[i];
    if (c === '\n') line++;
    if (c === '/' && source[i + 1] === '/') {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? source.length : end + 2;
      for (let k = i; k < stop; k++) if (source[k] === '\n') line++;
      i = stop;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      const startLine = line;
      let j = i + 1;
      let value = '';
      while (j < source.length && source[j] !== c) {
        if (source[j] === '\\') {
          value += source[j + 1];
          j += 2;
          continue;
        }
        if (source[j] === '\n') line++;
        value += source[j];
        j++;
      }
      if (call.test(code.slice(-40))) out.push({ title: value, line: startLine });
      code += ' ';
      i = j + 1;
      continue;
    }
    code += c;
    if (code.length > 200) code = code.slice(-100);
    i++;
  }
  return out;
}

export function scanTags(specRoot = SPEC_ROOT): Tag[] {
  const tags: Tag[] = [];
  for (const path of listSpecFiles(specRoot)) {
    const file = relative(ROOT, path).split(sep).join('/');
    for (const { title, line } of titlesOf(readFileSync(path, 'utf8'))) {
      for (const m of title.matchAll(TAG_RE)) tags.push({ id: m[1], file, title, line });
    }
  }
  return tags;
}

export function unknownTags(data: Requirement[], tags: Tag[]): Tag[] {
  const live = new Set(data.filter((r) => !r.retired).map((r) => r.id));
  return tags.filter((t) => !live.has(t.id));
}

// ---------------------------------------------------------------------------------------------
// explained rows

/** Why a row has no test: `n/a: <why>` (it does not apply to this project) or `explained: <why>` (met otherwise, said where). */
export type Explained = Record<string, string>;

const EXPLANATION_RE = /^(n\/a|explained): \S/;

export function loadExplained(file = EXPLAINED_FILE): Explained {
  if (!existsSync(file)) return {};
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { explained?: unknown };
  if (typeof parsed.explained !== 'object' || parsed.explained === null || Array.isArray(parsed.explained)) {
    throw new Error(`${relative(ROOT, file)}: expected {"explained": {"ID": "n/a: why" | "explained: why"}}`);
  }
  return parsed.explained as Explained;
}

/**
 * What is wrong with the explanations: an id that is not a live row, one that repeats another row
 * (explain the row it points to), one a test already covers, or a reason not starting "n/a: " / "explained: ".
 */
export function explainedProblems(data: Requirement[], tags: Tag[], explained: Explained): string[] {
  const live = new Map(data.filter((r) => !r.retired).map((r) => [r.id, r]));
  const lead = (id: string) => {
    const r = live.get(id);
    return r?.same_as && live.has(r.same_as) ? r.same_as : id;
  };
  const covered = new Set(tags.filter((t) => live.has(t.id)).map((t) => lead(t.id)));
  const problems: string[] = [];
  for (const [id, why] of Object.entries(explained)) {
    if (!live.has(id)) problems.push(`${id}: no such requirement (or retired)`);
    else if (lead(id) !== id) problems.push(`${id}: repeats ${lead(id)}; explain that row instead`);
    else if (covered.has(id)) problems.push(`${id}: covered by a test, so not to be explained`);
    if (typeof why !== 'string' || !EXPLANATION_RE.test(why)) problems.push(`${id}: the reason must start with "n/a: " or "explained: "`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// rendering

/** Text for a table cell: pipes escaped, `<` escaped outside code spans (inside them it shows as is). */
const cell = (s: string) =>
  s
    .split(/(`[^`]*`)/)
    .map((part) => (part.startsWith('`') ? part : part.replace(/</g, '&lt;')))
    .join('')
    .replace(/\|/g, '\\|')
    .replace(/\s+/g, ' ')
    .trim();
const isMust = (k: string) => MUST_LEVEL.has(k);

export function render(data: Requirement[], tags: Tag[], explained: Explained = {}): string {
  const live = data.filter((r) => !r.retired);
  const byId = new Map(live.map((r) => [r.id, r]));
  const lead = (r: Requirement) => (r.same_as && byId.has(r.same_as) ? byId.get(r.same_as)! : r);
  const primaries = live.filter((r) => lead(r) === r);
  const members = new Map<string, Requirement[]>(primaries.map((p) => [p.id, [p]]));
  for (const r of live) if (lead(r) !== r) members.get(lead(r).id)!.push(r);
  const coveredBy = new Map<string, Tag[]>();
  for (const t of tags) {
    const r = byId.get(t.id);
    if (!r) continue;
    const p = lead(r).id;
    const list = coveredBy.get(p) ?? [];
    if (!list.some((x) => x.file === t.file && x.title === t.title)) list.push(t);
    coveredBy.set(p, list);
  }
  const covered = (id: string) => (coveredBy.get(id)?.length ?? 0) > 0;
  const isExplained = (id: string) => !covered(id) && typeof explained[id] === 'string';
  const prefixOf = (area: string) => PREFIX.get(area) ?? '?';
  const areas = AREAS.map(([a]) => a).filter((a) => primaries.some((p) => p.area === a));
  const totalCovered = primaries.filter((p) => covered(p.id)).length;
  const totalExplained = primaries.filter((p) => isExplained(p.id)).length;
  const totalOpen = primaries.length - totalCovered - totalExplained;

  const out: string[] = [];
  out.push('# Requirements');
  out.push('');
  out.push('<!-- Generated by `npm run requirements` (tsx scripts/requirements.ts render). Do not edit by hand. -->');
  out.push('');
  out.push(
    'Every MUST and SHOULD (RFC 2119 keywords in upper case: MUST, MUST NOT, REQUIRED, SHALL, SHALL NOT, SHOULD, SHOULD NOT, ' +
      'RECOMMENDED, NOT RECOMMENDED) of the protocol texts in `../shared/spec/`, one row each, with the tests that cover it.',
  );
  out.push('');
  out.push('How it is made:');
  out.push('');
  out.push(
    '- `npx tsx scripts/requirements.ts extract` reads the texts and merges the sentences into ' +
      '`docs/requirements/requirements.json` (id, area, keyword, file, section, line, sentence, `same_as`). ' +
      'Ids are never renumbered: a sentence keeps its id when re-extracted, a vanished one is kept as `retired`.',
  );
  out.push(
    '- A sentence repeated (identically or nearly) by several revisions is one row here: the id and wording of the newest ' +
      'revision, with every source listed; the older rows point to it with `same_as`.',
  );
  out.push(
    "- `npm run requirements` scans `spec/**/*.spec.ts` (and the shared `*.behaviour.ts`) and writes this file; `spec/docs/requirements.spec.ts` fails when it is stale or a test tags an unknown id.",
  );
  out.push('');
  out.push(
    "To cover a requirement, put its id in square brackets in a test or `describe` title, any number per title: " +
      "`it('[LIFE-012] [LIFE-013] client sends initialized after the result', ...)`. Tagging an older revision's id counts for its row.",
  );
  out.push('');
  out.push(
    'A row no test can cover is explained in `docs/requirements-explained.json` (`"ID": "n/a: why"` when it does not apply to this ' +
      'project, `"explained: why"` when it is met otherwise, saying where); the reason shows in its last column. ' +
      'The check refuses an explained id that is unknown, repeats another row, or is covered by a test.',
  );
  out.push('');
  out.push(
    `**${primaries.length} requirements** (${live.length} sentences across the texts): ` +
      `**${totalCovered} covered**, **${totalExplained} explained**, **${totalOpen} not yet**.`,
  );
  out.push('');
  out.push('| area | id prefix | requirements | MUST-level | SHOULD-level | covered | explained | not yet |');
  out.push('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const a of areas) {
    const rows = primaries.filter((p) => p.area === a);
    const c = rows.filter((p) => covered(p.id)).length;
    const e = rows.filter((p) => isExplained(p.id)).length;
    const m = rows.filter((p) => isMust(p.keyword)).length;
    out.push(`| [${a}](#${a}) | \`${prefixOf(a)}-\` | ${rows.length} | ${m} | ${rows.length - m} | ${c} | ${e} | ${rows.length - c - e} |`);
  }
  out.push(
    `| **all** | | ${primaries.length} | ${primaries.filter((p) => isMust(p.keyword)).length} | ` +
      `${primaries.filter((p) => !isMust(p.keyword)).length} | ${totalCovered} | ${totalExplained} | ${totalOpen} |`,
  );
  out.push('');
  out.push('Sentences per text (a row counts once for each text it appears in):');
  out.push('');
  out.push('| file | sentences | MUST-level | SHOULD-level | shown as its own row |');
  out.push('| --- | ---: | ---: | ---: | ---: |');
  for (const f of textFiles()) {
    const rows = live.filter((r) => r.file === f);
    const m = rows.filter((r) => isMust(r.keyword)).length;
    const own = rows.filter((r) => lead(r) === r).length;
    out.push(`| \`${f}\` | ${rows.length} | ${m} | ${rows.length - m} | ${own} |`);
  }
  const retired = data.length - live.length;
  if (retired > 0) out.push('', `${retired} retired id(s) are kept in the data file and not shown.`);
  out.push('');
  for (const a of areas) {
    out.push(`## ${a}`);
    out.push('');
    out.push('| id | keyword | requirement | source | covered by |');
    out.push('| --- | --- | --- | --- | --- |');
    for (const p of primaries.filter((x) => x.area === a)) {
      const sources = members
        .get(p.id)!
        .map((r) => `\`${r.file}:${r.line}\` § ${cell(r.section)}${r === p ? '' : ` (${r.id})`}`)
        .join('<br>');
      const cov = coveredBy.get(p.id);
      const by = cov?.length
        ? cov.map((t) => `\`${t.file}\`: ${cell(t.title)}`).join('<br>')
        : isExplained(p.id)
          ? cell(explained[p.id])
          : 'not yet';
      out.push(`| ${p.id} | ${p.keyword} | ${cell(p.sentence)} | ${sources} | ${by} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------
// command line

function main(argv: string[]): number {
  const [command, ...rest] = argv;
  if (command === 'extract') {
    const i = rest.indexOf('--spec-dir');
    const specDir = i >= 0 ? resolve(rest[i + 1]) : (process.env.MCP_SPEC_DIR ?? DEFAULT_SPEC_DIR);
    const previous = loadData();
    const merged = merge(previous, extractAll(specDir));
    saveData(merged);
    const live = merged.filter((r) => !r.retired);
    const fresh = live.filter((r) => !previous.some((p) => p.id === r.id)).length;
    console.log(`${live.length} sentences (${fresh} new ids, ${merged.length - live.length} retired) -> ${relative(ROOT, DATA_FILE)}`);
    for (const f of textFiles()) console.log(`  ${f}: ${live.filter((r) => r.file === f).length}`);
    return 0;
  }
  if (command === 'render') {
    const data = loadData();
    const tags = scanTags();
    const unknown = unknownTags(data, tags);
    if (unknown.length) {
      console.error('Tests tag requirement ids that do not exist (or are retired):');
      for (const t of unknown) console.error(`  [${t.id}] ${t.file}:${t.line} ${t.title}`);
      return 1;
    }
    const explained = loadExplained();
    const problems = explainedProblems(data, tags, explained);
    if (problems.length) {
      console.error(`${relative(ROOT, EXPLAINED_FILE)}:`);
      for (const p of problems) console.error(`  ${p}`);
      return 1;
    }
    const text = render(data, tags, explained);
    if (rest.includes('--check')) {
      const current = existsSync(DOC_FILE) ? readFileSync(DOC_FILE, 'utf8') : '';
      if (current !== text) {
        console.error(`${relative(ROOT, DOC_FILE)} is out of date: run \`npm run requirements\``);
        return 1;
      }
      return 0;
    }
    writeFileSync(DOC_FILE, text);
    console.log(`${relative(ROOT, DOC_FILE)} written`);
    return 0;
  }
  console.error('usage: tsx scripts/requirements.ts extract [--spec-dir DIR] | render [--check]');
  return 2;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
