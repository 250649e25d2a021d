import { expect } from 'chai';
import { readCompletion } from '../../lib/client-features/completer.js';
import { McpError } from '../../lib/errors.js';
import { flush, pair } from './helpers.js';

const REF = { type: 'ref/prompt' as const, name: 'code_review' };
const LANGUAGES = ['python', 'pytorch', 'pyside', 'rust'];

/** A server answering completions from LANGUAGES (or `answer`), recording each value asked. */
async function completionServer(answer?: (value: string) => unknown, capabilities: Record<string, unknown> = { completions: {} }) {
  const asked: { value: string; context: unknown }[] = [];
  const p = await pair({
    serverCapabilities: capabilities,
    setup: (_c, server) => {
      server.onRequest('completion/complete', (params) => {
        const value = (params?.argument as { value: string }).value;
        asked.push({ value, context: params?.context });
        if (answer) return answer(value) as any;
        const values = LANGUAGES.filter((l) => l.startsWith(value));
        return { completion: { values, total: values.length, hasMore: false } };
      });
    },
  });
  return { ...p, asked };
}

describe('client features: completer (debounce, cache, tolerant results)', () => {
  it('[COMPL-010] a burst of keystrokes is one request, for the last value, after the quiet time', async () => {
    const { client, clock, asked } = await completionServer();
    const c = client.completer(REF, 'language', { debounceMs: 100 });
    const p1 = c.suggest('p');
    clock.advance(40);
    const p2 = c.suggest('py');
    clock.advance(40);
    const p3 = c.suggest('pyt');
    expect(await p1, 'superseded').to.equal(undefined);
    expect(await p2, 'superseded').to.equal(undefined);
    clock.advance(99);
    await flush();
    expect(asked).to.deep.equal([]);
    clock.advance(1);
    expect(await p3).to.deep.equal({ values: ['python', 'pytorch'], total: 2, hasMore: false, cached: false });
    expect(asked.map((a) => a.value)).to.deep.equal(['pyt']);
  });

  it('[COMPL-011] repeated values are answered from the cache (keyed by value and context) until it expires', async () => {
    const { client, clock, asked } = await completionServer();
    const c = client.completer(REF, 'language', { debounceMs: 0, cacheTtlMs: 1_000 });
    const ask = async (value: string, context?: { arguments: Record<string, string> }) => {
      const p = c.suggest(value, context);
      clock.advance(0);
      return p;
    };
    expect((await ask('py'))!.cached).to.equal(false);
    const again = await ask('py');
    expect(again).to.deep.include({ cached: true, values: ['python', 'pytorch', 'pyside'] });
    expect((await ask('py', { arguments: { framework: 'x' } }))!.cached, 'another context is another entry').to.equal(false);
    expect((await ask('py', { arguments: { framework: 'x' } }))!.cached).to.equal(true);
    clock.advance(1_000);
    expect((await ask('py'))!.cached, 'expired').to.equal(false);
    expect(asked.map((a) => a.value)).to.deep.equal(['py', 'py', 'py']);
    expect(asked[1]!.context).to.deep.equal({ arguments: { framework: 'x' } });
  });

  it('[COMPL-012] missing, malformed and partial results, errors, and servers without completions all give a usable list', async () => {
    expect(readCompletion({})).to.deep.equal({ values: [], total: 0, hasMore: false });
    expect(readCompletion({ completion: { values: ['a', 7, null, 'b'] } })).to.deep.equal({ values: ['a', 'b'], total: 2, hasMore: true });
    expect(readCompletion({ completion: { values: ['a'], total: 40 } })).to.deep.equal({ values: ['a'], total: 40, hasMore: true });
    expect(readCompletion({ completion: { values: ['a', 'b'], total: 1, hasMore: 'yes' } })).to.deep.equal({ values: ['a', 'b'], total: 2, hasMore: false });

    let answer: unknown = { nothing: true };
    const { client, clock } = await completionServer(() => {
      if (answer instanceof Error) throw answer;
      return answer;
    });
    const c = client.completer(REF, 'language', { debounceMs: 0, cacheTtlMs: 0 });
    const ask = async (value: string) => {
      const p = c.suggest(value);
      clock.advance(0);
      return p;
    };
    expect(await ask('x')).to.deep.equal({ values: [], total: 0, hasMore: false, cached: false });
    answer = new McpError(-32602, 'Unknown prompt: code_review');
    const failed = await ask('y');
    expect(failed).to.deep.include({ values: [], total: 0, hasMore: false });
    expect(failed!.error).to.be.instanceOf(McpError);

    const none = await completionServer(undefined, {});
    const n = none.client.completer(REF, 'language', { debounceMs: 0 });
    expect(await n.suggest('py')).to.deep.equal({ values: [], total: 0, hasMore: false, cached: false });
    expect(none.asked, 'no request to a server without completions').to.deep.equal([]);
  });
});
