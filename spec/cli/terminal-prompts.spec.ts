// The CLI's elicitation prompts (lib/cli/terminal-io.ts) on a scripted terminal: who asks, the
// decline and cancel ways out, a review of the form before it is sent, and a URL that is shown,
// never fetched.
import { expect } from 'chai';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import type { FormElicitationRequest, UrlElicitationRequest } from '../../lib/client-features/elicitation.js';
import { askForm, askUrlConsent, type TerminalIO } from '../../lib/cli/terminal-io.js';
import { makeStyle } from '../../lib/cli/style.js';

/** A terminal whose person answers each prompt (matched by text) with the next scripted line. */
function scripted(answers: [prompt: string, line: string][]): { io: TerminalIO; shown: () => string } {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  let next = 0;
  output.on('data', (d: Buffer) => {
    text += d.toString('utf8');
    const step = answers[next];
    // Answer once the prompt is on screen (a new question is asked per line).
    if (step && text.endsWith(': ') && text.slice(text.lastIndexOf('\n')).includes(step[0])) {
      next++;
      setImmediate(() => input.write(step[1] + '\n'));
    }
  });
  return { io: { input, output, style: makeStyle(false), onInterrupt: () => {} }, shown: () => text };
}

const FORM: FormElicitationRequest = {
  mode: 'form',
  message: 'Who are you?',
  requestedSchema: {
    type: 'object',
    properties: { name: { type: 'string', title: 'Name' }, age: { type: 'integer', title: 'Age' } },
    required: ['name'],
  },
  defaults: {},
  server: { name: 'archive-server', version: '1.0.0' },
};

describe('CLI elicitation prompts (scripted terminal)', () => {
  const signal = new AbortController().signal;

  it('[ELICIT-073] [ELICIT-039] names the server and its reason, shows every answer before sending, lets the person edit, and sends only on their word', async () => {
    const t = scripted([
      ['Answer?', 'a'],
      ['Name', 'Ada'],
      ['Age', '36'],
      ['Send it?', 'e'],
      ['Name', ''],
      ['Age', '37'],
      ['Send it?', 's'],
    ]);
    const answer = await askForm(t.io, FORM, signal);
    expect(answer).to.deep.equal({ action: 'accept', content: { name: 'Ada', age: 37 } });
    const shown = t.shown();
    expect(shown).to.include('archive-server asks: Who are you?');
    expect(shown).to.include('[a]ccept / [d]ecline / [c]ancel');
    // Reviewed twice: first as typed, then as edited (the first answers offered as defaults).
    expect(shown).to.include('To send to archive-server:\n  Name: "Ada"\n  Age: 36\n');
    expect(shown).to.include('(default "Ada", required)');
    expect(shown).to.include('To send to archive-server:\n  Name: "Ada"\n  Age: 37\n');
  });

  it('[ELICIT-073] declining or cancelling at the review sends nothing of what was typed', async () => {
    for (const [key, action] of [['d', 'decline'], ['c', 'cancel']] as const) {
      const t = scripted([
        ['Answer?', 'a'],
        ['Name', 'Ada'],
        ['Age', ''],
        ['Send it?', key],
      ]);
      expect(await askForm(t.io, FORM, signal)).to.deep.equal({ action });
    }
    const early = scripted([['Answer?', 'c']]);
    expect(await askForm(early.io, FORM, signal)).to.deep.equal({ action: 'cancel' });
  });

  it('an answer that is not one of the choices is asked again: a typo or a bare Enter never sends the form', async () => {
    const t = scripted([
      ['Answer?', 'x'],
      ['Answer?', ''],
      ['Answer?', 'dd'],
      ['Answer?', 'd'],
    ]);
    expect(await askForm(t.io, FORM, signal)).to.deep.equal({ action: 'decline' });
    expect(t.shown().split('Type one of a, d, c.').length - 1).to.equal(3);
    const review = scripted([
      ['Answer?', 'accept'],
      ['Name', 'Ada'],
      ['Age', ''],
      ['Send it?', 'sned'],
      ['Send it?', 'c'],
    ]);
    expect(await askForm(review.io, FORM, signal)).to.deep.equal({ action: 'cancel' });
    expect(review.shown()).to.include('Type one of s, y, e, d, c.');
  });

  it('[ELICIT-048] a URL the person agrees to open is handed to their browser: the CLI fetches nothing of it', async () => {
    let hits = 0;
    const page = createServer((_req, res) => {
      hits++;
      res.end('<form>password: <input></form>');
    });
    await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(page.address() as AddressInfo).port}/login?state=abc`;
      const request: UrlElicitationRequest = { mode: 'url', url, domain: '127.0.0.1', punycode: false, message: 'Sign in', elicitationId: 'e-1', server: { name: 'archive-server', version: '1' }, origin: 'request' };
      const t = scripted([['Open it?', 'y']]);
      expect(await askUrlConsent(t.io, request, signal)).to.equal('accept');
      expect(t.shown()).to.include(`Open this URL in your browser: ${url}`);
      // Give a fetch, had one started, the time to arrive.
      await new Promise((r) => setTimeout(r, 100));
      expect(hits).to.equal(0);
    } finally {
      await new Promise((r) => page.close(r));
    }
  });
});
