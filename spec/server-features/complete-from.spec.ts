import { expect } from 'chai';
import { completeFrom, rankCompletions } from '../../lib/server-features/complete-from.js';
import { connect, makeServer } from './helpers.js';

const LANGUAGES = ['typescript', 'javascript', 'java', 'coffeescript', 'objective-c', 'c', 'scala', 'rust'];

describe('server features: ranked completion (completeFrom)', () => {
  it('[COMPL-006] sorts by relevance: exact, prefix, word prefix, substring; ties keep the list order', () => {
    expect(rankCompletions(LANGUAGES, 'java')).to.deep.equal(['java', 'javascript']);
    expect(rankCompletions(LANGUAGES, 'c')).to.deep.equal(['c', 'coffeescript', 'objective-c', 'typescript', 'javascript', 'scala']);
    expect(rankCompletions(LANGUAGES, 'script')).to.deep.equal(['typescript', 'javascript', 'coffeescript']);
    expect(rankCompletions(LANGUAGES, 'JAVA'), 'case-insensitive by default').to.deep.equal(['java', 'javascript']);
    expect(rankCompletions(LANGUAGES, 'JAVA', { caseSensitive: true })).to.deep.equal([]);
    expect(rankCompletions(LANGUAGES, ''), 'nothing typed: everything, in order').to.deep.equal(LANGUAGES);
  });

  it('[COMPL-007] fuzzy matching finds the typed characters in order, after every closer match, tightest first', () => {
    expect(rankCompletions(LANGUAGES, 'tscr')).to.deep.equal([]);
    expect(rankCompletions(LANGUAGES, 'tscr', { fuzzy: true })).to.deep.equal(['typescript']);
    expect(rankCompletions(['resources', 'rust', 'rsc-tool'], 'rsc', { fuzzy: true })).to.deep.equal(['rsc-tool', 'resources']);
    expect(rankCompletions(['a-b-c-x', 'abcx', 'xabc'], 'abc', { fuzzy: true })).to.deep.equal(['abcx', 'xabc', 'a-b-c-x']);
  });

  it('[COMPL-006] [COMPL-007] as a prompt argument callback: best first over the wire, total and hasMore past the limit', async () => {
    const { mcp } = makeServer();
    mcp.registerPrompt(
      'review',
      {
        arguments: [
          { name: 'language', complete: completeFrom(LANGUAGES, { fuzzy: true }) },
          { name: 'file', complete: completeFrom(Array.from({ length: 150 }, (_, i) => `file${i}.ts`)) },
        ],
      },
      () => 'x',
    );
    const { client } = await connect(mcp);
    const ref = { type: 'ref/prompt' as const, name: 'review' };
    expect((await client.complete(ref, { name: 'language', value: 'scr' })).completion).to.deep.equal({
      values: ['typescript', 'javascript', 'coffeescript'],
      total: 3,
      hasMore: false,
    });
    const files = (await client.complete(ref, { name: 'file', value: 'file' })).completion;
    expect(files.values).to.have.length(100);
    expect(files).to.include({ total: 150, hasMore: true });
  });
});
