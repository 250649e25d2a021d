// The requirements table (docs/requirements.md) is generated from docs/requirements/requirements.json and the
// requirement ids that tests put in their titles. These checks keep it true: regenerate with `npm run requirements`.
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import {
  AREAS,
  DOC_FILE,
  clip,
  explainedProblems,
  extractText,
  loadExplained,
  keywordsOf,
  loadData,
  merge,
  render,
  scanTags,
  sentences,
  titlesOf,
  unknownTags,
  type Extracted,
  type Requirement,
} from '../../scripts/requirements.js';

describe('docs/requirements.md', () => {
  const data = loadData();

  it('lists requirements from the data file', () => {
    expect(data.length).to.be.greaterThan(0);
  });

  it('has unique, well-formed ids whose prefix matches their area, and same_as links that resolve', () => {
    const prefix = new Map(AREAS);
    const ids = new Set<string>();
    for (const r of data) {
      expect(ids.has(r.id), `duplicate id ${r.id}`).to.equal(false);
      ids.add(r.id);
      expect(r.id, r.id).to.match(new RegExp(`^${prefix.get(r.area)}-\\d{3,}$`));
    }
    for (const r of data.filter((x) => x.same_as)) expect(ids.has(r.same_as!), `${r.id} same_as ${r.same_as}`).to.equal(true);
  });

  it('keeps every quote to one trimmed sentence with its keyword', () => {
    for (const r of data) {
      expect(r.sentence.length, r.id).to.be.at.most(201);
      expect(keywordsOf(r.sentence).map((k) => k.keyword), r.id).to.include(r.keyword);
    }
  });

  it('is tagged only with ids that exist', () => {
    const unknown = unknownTags(data, scanTags());
    const list = unknown.map((t) => `  [${t.id}] ${t.file}:${t.line} ${t.title}`).join('\n');
    expect(unknown, `tests tag unknown requirement ids:\n${list}`).to.deep.equal([]);
  });

  it('explains only rows that exist, are not repeats and no test covers, each "n/a: why" or "explained: why"', () => {
    const problems = explainedProblems(data, scanTags(), loadExplained());
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('is up to date with the data file and the test titles', () => {
    const expected = render(data, scanTags(), loadExplained());
    const actual = existsSync(DOC_FILE) ? readFileSync(DOC_FILE, 'utf8') : '';
    if (actual !== expected) {
      expect.fail('docs/requirements.md is out of date: run `npm run requirements` (tsx scripts/requirements.ts render)');
    }
  });
});

describe('scripts/requirements.ts', () => {
  const md = (text: string) => extractText('x.md', text).map((e) => e.sentence);

  it('splits sentences, but not after abbreviations or inside code spans', () => {
    expect(sentences('A MUST b (e.g. c). Then `x. Y` SHOULD z. Last one')).to.deep.equal([
      'A MUST b (e.g. c).',
      'Then `x. Y` SHOULD z.',
      'Last one',
    ]);
  });

  it('takes upper-case keywords only, not quoted ones or ones in code', () => {
    expect(keywordsOf('clients must not; they MUST NOT and SHOULD').map((k) => k.keyword)).to.deep.equal(['MUST NOT', 'SHOULD']);
    expect(keywordsOf('The key words "MUST", "SHOULD NOT" and `MUST` are ...')).to.deep.equal([]);
  });

  it('joins hard-wrapped lines, drops markup and keeps code spans', () => {
    const text = '# Page\n\nThe client **MUST** send the [`initialized`](#x)\nnotification. It _MAY_ wait.\n';
    expect(md(text)).to.deep.equal(['The client MUST send the `initialized` notification.']);
  });

  it('gives each item of a list led by "X MUST:" its own row, and skips fenced code', () => {
    const text = '# P\n\n1. Servers **MUST**:\n\n   - Validate inputs\n   - Rate limit\n\n```json\n{"a": "MUST"}\n```\n';
    expect(md(text)).to.deep.equal(['Servers MUST: Validate inputs', 'Servers MUST: Rate limit']);
  });

  it('keeps the lead of subject-less items ("The parameter: MUST be ...")', () => {
    const text = '# P\n\nThe `resource` parameter:\n\n1. **MUST** be included in requests.\n2. **MUST** identify the server.\n';
    expect(md(text)).to.deep.equal([
      'The `resource` parameter: MUST be included in requests.',
      'The `resource` parameter: MUST identify the server.',
    ]);
  });

  it('reads the plain-text layout: bare-line pages and indented lists', () => {
    const text = 'Logging\nProtocol Revision: 2024-11-05\n\n    Log messages MUST NOT contain:\n        Secrets\n        Personal data\n';
    const rows = extractText('x.txt', text);
    expect(rows.map((e) => e.sentence)).to.deep.equal(['Log messages MUST NOT contain: Secrets', 'Log messages MUST NOT contain: Personal data']);
    expect(rows[0].section).to.equal('Logging');
  });

  it('clips long quotes with an ellipsis and keeps the keyword in view', () => {
    const long = `${'word '.repeat(60)}servers MUST do it ${'more '.repeat(20)}`.trim();
    const quote = clip(long);
    expect(quote.length).to.be.at.most(200);
    expect(quote).to.include('MUST').and.match(/^\u2026/);
  });

  it('keeps ids when re-extracting, and links the same sentence across revisions', () => {
    const row = (file: string, sentence: string, line = 1): Extracted => ({
      file,
      section: 'Ping',
      line,
      keyword: 'MUST',
      keywords: ['MUST'],
      sentence,
      full: sentence,
      core: sentence,
      areaPath: ['Ping'],
    });
    const first = merge([], [row('draft.md', 'The receiver MUST respond.'), row('2024-11-05.txt', 'The receiver MUST respond.')]);
    expect(first.map((r) => [r.id, r.same_as])).to.deep.equal([
      ['PING-001', undefined],
      ['PING-002', 'PING-001'],
    ]);
    const again = merge(first, [row('draft.md', 'A new one MUST hold.'), row('draft.md', 'The receiver MUST respond.', 9)]);
    expect(again.map((r) => [r.id, r.sentence, r.retired])).to.deep.equal([
      ['PING-001', 'The receiver MUST respond.', undefined],
      ['PING-002', 'The receiver MUST respond.', true],
      ['PING-003', 'A new one MUST hold.', undefined],
    ]);
  });

  it('finds tags in describe and it titles, not in comments', () => {
    const src = "// it('[X-001] no')\ndescribe(`[A-001] suite`, () => {\n  it('[B-002] [C-003] case', () => {});\n});\n";
    const titles = titlesOf(src);
    expect(titles.map((t) => t.title)).to.deep.equal(['[A-001] suite', '[B-002] [C-003] case']);
  });
});

describe('requirements: explained rows', () => {
  const row = (id: string, extra: Partial<Requirement> = {}): Requirement => ({ id, area: 'authorization', keyword: 'MUST', file: 'x.md', section: 'S', line: 1, sentence: `${id} MUST hold.`, ...extra });
  const data = [row('AUTH-001'), row('AUTH-002'), row('AUTH-003'), row('AUTH-004', { same_as: 'AUTH-003' }), row('AUTH-005', { retired: true })];
  const tags = [{ id: 'AUTH-002', file: 'spec/a.spec.ts', title: '[AUTH-002] holds', line: 3 }];

  it('shows the reason in the row and counts it apart from covered and not yet', () => {
    const text = render(data, tags, { 'AUTH-001': 'n/a: only a server does this' });
    expect(text).to.include('| AUTH-001 | MUST | AUTH-001 MUST hold. |');
    expect(text).to.match(/\| AUTH-001 \|.*\| n\/a: only a server does this \|$/m);
    expect(text).to.match(/\| AUTH-003 \|.*\| not yet \|$/m);
    expect(text).to.include('**1 covered**, **1 explained**, **1 not yet**');
    expect(text).to.include('| [authorization](#authorization) | `AUTH-` | 3 | 3 | 0 | 1 | 1 | 1 |');
  });

  it('refuses an unknown, retired, repeated or covered id, and a reason without its kind', () => {
    const problems = explainedProblems(data, tags, {
      'AUTH-009': 'n/a: no such row',
      'AUTH-005': 'n/a: retired',
      'AUTH-004': 'explained: a repeat',
      'AUTH-002': 'explained: but a test covers it',
      'AUTH-001': 'because',
      'AUTH-003': 'explained: fine',
    });
    expect(problems).to.deep.equal([
      'AUTH-009: no such requirement (or retired)',
      'AUTH-005: no such requirement (or retired)',
      'AUTH-004: repeats AUTH-003; explain that row instead',
      'AUTH-002: covered by a test, so not to be explained',
      'AUTH-001: the reason must start with "n/a: " or "explained: "',
    ]);
  });
});
