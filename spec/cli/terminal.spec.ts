// The talk commands as a person at a terminal sees them (node-pty): colours, the progress bar,
// Ctrl-C cancelling the request in flight, answering an elicitation form, consenting (or not) to a
// URL elicitation and a sampling request, and their prompts closing when the server withdraws them.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plain, Terminal, TERMINAL_SERVER_CMD } from './helpers.js';

/**
 * The line the fixture server appends once its handler saw the cancellation: the server is
 * another process, so it may come after the CLI exited, and the file exists (empty) an instant
 * before the line is in it. Bounded by time, not by a count of polls.
 */
async function cancelLog(file: string, ms = 15_000): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (text.endsWith('\n') || Date.now() > deadline) return text;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('mcp-actors CLI at a terminal (node-pty)', function () {
  this.timeout(30000);
  let term: Terminal | undefined;
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mcp-cli-'))));
  afterEach(() => {
    term?.kill();
    term = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('draws a progress bar, in colour, while a tool reports progress', async () => {
    term = new Terminal(['call', 'slow', 'steps=3', 'ms=150', '--', ...TERMINAL_SERVER_CMD]);
    expect(await term.exited).to.equal(0);
    const text = plain(term.output);
    expect(text).to.match(/█+░*\s+\d\/3 step \d/);
    expect(text).to.include('counted to 3');
    // Colours on a terminal: the bar's filled part is green.
    expect(term.output).to.include('\x1b[32m█');
  });

  it('[CANCEL-010] Ctrl-C cancels the request in flight: the server is told, the CLI exits 130 and says so', async () => {
    const log = join(dir, 'cancel.log');
    term = new Terminal(['call', 'hang', '--era', 'legacy', '--', ...TERMINAL_SERVER_CMD, log]);
    await term.waitFor('waiting');
    term.type('\x03');
    expect(await term.exited).to.equal(130);
    expect(plain(term.output)).to.include('Cancelled: the server was told (notifications/cancelled).');
    expect(await cancelLog(log)).to.include('cancelled: interrupted by the user (Ctrl-C)');
  });

  it('Ctrl-C cancels a 2026-07-28 request too: the handler on the server is stopped', async () => {
    const log = join(dir, 'cancel.log');
    term = new Terminal(['call', 'hang', '--era', 'modern', '--', ...TERMINAL_SERVER_CMD, log]);
    await term.waitFor('waiting');
    term.type('\x03');
    expect(await term.exited).to.equal(130);
    expect(plain(term.output)).to.include('Cancelled: the server was told (notifications/cancelled).');
    expect(await cancelLog(log)).to.match(/^cancelled: /);
  });

  it('[ELICIT-073] asks the person to fill an elicitation form, field by field, shows it, and sends the answer once they say so', async () => {
    term = new Terminal(['call', 'ask', '--', ...TERMINAL_SERVER_CMD]);
    await term.waitFor('Answer?');
    expect(plain(term.output)).to.include('terminal-fixture asks: Who are you?');
    term.type('a\r');
    await term.waitFor('Name');
    term.type('Ada\r');
    await term.waitFor('3) blue');
    term.type('7\r');
    await term.waitFor('choose 1-3');
    term.type('2\r');
    await term.waitFor('Age');
    term.type('\r');
    // Reviewed before it goes: nothing is sent until the person says so.
    await term.waitFor('Send it?');
    expect(plain(term.output)).to.match(/To send to terminal-fixture:\r?\n {2}Name: "Ada"/);
    term.type('s\r');
    expect(await term.exited).to.equal(0);
    const answer = plain(term.output).split('\n').find((l) => l.startsWith('{"action"'));
    expect(JSON.parse(answer!)).to.deep.equal({ action: 'accept', content: { name: 'Ada', color: 'green', age: 30 } });
  });

  it('[ELICIT-006] a URL elicitation shows the page and its domain and opens nothing without consent; yes accepts, Enter declines', async function () {
    this.timeout(120000); // four CLI runs
    for (const era of ['legacy', 'modern']) {
      term = new Terminal(['call', 'open-page', '--era', era, '--', ...TERMINAL_SERVER_CMD]);
      await term.waitFor('Open it?');
      const shown = plain(term.output);
      expect(shown, era).to.include('terminal-fixture asks you to open a page: Sign in to the archive');
      expect(shown, era).to.include('URL:    https://archive.example.com/login?state=abc');
      expect(shown, era).to.match(/Domain: archive\.example\.com\r?\n/);
      expect(shown, era).to.not.include('Open this URL in your browser');
      term.type('y\r');
      // 2026-07-28 retries the call with the answer: the person says when they are done on the page.
      if (era === 'modern') {
        await term.waitFor('When you are done on the page');
        term.type('\r');
      }
      expect(await term.exited, era).to.equal(0);
      expect(plain(term.output), era).to.include('Open this URL in your browser: https://archive.example.com/login?state=abc');
      const accepted = plain(term.output).split('\n').find((l) => l.startsWith('{"action"'));
      expect(JSON.parse(accepted!), era).to.deep.equal({ action: 'accept' });
      term = new Terminal(['call', 'open-page', '--era', era, '--', ...TERMINAL_SERVER_CMD]);
      await term.waitFor('Open it?');
      term.type('\r');
      expect(await term.exited, era).to.equal(0);
      expect(plain(term.output), era).to.not.include('Open this URL in your browser');
      const declined = plain(term.output).split('\n').find((l) => l.startsWith('{"action"'));
      expect(JSON.parse(declined!), era).to.deep.equal({ action: 'decline' });
    }
  });

  it('[ELICIT-083] 2026-07-28: after consent the call waits for the person, who goes on when done on the page or cancels the call', async function () {
    this.timeout(60000);
    term = new Terminal(['call', 'open-page', '--era', 'modern', '--', ...TERMINAL_SERVER_CMD]);
    await term.waitFor('Open it?');
    term.type('y\r');
    await term.waitFor('When you are done on the page');
    // Nothing is retried behind the person's back: no answer yet, the process still waits.
    expect(plain(term.output)).to.not.include('{"action"');
    term.type('c\r');
    expect(await term.exited).to.equal(130);
    expect(plain(term.output)).to.include('Cancelled');
    expect(plain(term.output)).to.not.include('{"action"');
  });

  it('a URL elicitation to a punycode domain is flagged: it may imitate another name', async () => {
    term = new Terminal(['call', 'open-page', 'url=https://xn--pypal-4ve.com/login', '--era', 'legacy', '--', ...TERMINAL_SERVER_CMD]);
    await term.waitFor('Open it?');
    expect(plain(term.output)).to.match(/Domain: xn--pypal-4ve\.com {2}\(punycode: may imitate another name\)/);
    expect(term.output).to.include('\x1b[31m  (punycode');
    term.type('n\r');
    expect(await term.exited).to.equal(0);
  });

  it('asks before a sampling request goes anywhere; a refusal reaches the server as a rejection', async () => {
    term = new Terminal(['call', 'sample', '--', ...TERMINAL_SERVER_CMD]);
    await term.waitFor('Allow?');
    expect(plain(term.output)).to.include('user: Say hi');
    term.type('n\r');
    const code = await term.exited;
    expect(plain(term.output)).to.match(/rejected/i);
    expect(code).to.not.equal(0);
    term = new Terminal(['call', 'sample', '--', ...TERMINAL_SERVER_CMD]);
    await term.waitFor('Allow?');
    term.type('y\r');
    await term.waitFor('Reply as the model');
    term.type('hello there\r');
    expect(await term.exited).to.equal(0);
    expect(plain(term.output)).to.include('model said: hello there');
  });

  // Only a legacy session's server waits for an answer it can withdraw (in 2026-07-28 it asks in a result).
  it('closes the sampling approval prompt when the server cancels that request; the call goes on', async () => {
    term = new Terminal(['call', 'sample-withdrawn', 'ms=1500', '--era', 'legacy', '--', ...TERMINAL_SERVER_CMD]);
    await term.waitFor('Allow?');
    // Nobody answers: the server gives up and sends notifications/cancelled.
    await term.waitFor('The server withdrew this request; nothing was sent.');
    expect(await term.exited).to.equal(0);
    const text = plain(term.output);
    expect(text).to.include('the server withdrew its sampling request');
    // The prompt never came back after the withdrawal.
    expect(text.slice(text.indexOf('withdrew this request'))).to.not.include('Allow?');
  });

  it('closes an elicitation form when the server cancels it, even halfway through its fields', async () => {
    term = new Terminal(['call', 'ask-withdrawn', 'ms=2500', '--era', 'legacy', '--', ...TERMINAL_SERVER_CMD]);
    await term.waitFor('Answer?');
    term.type('a\r');
    await term.waitFor('Name');
    await term.waitFor('The server withdrew this request; nothing was sent.');
    expect(await term.exited).to.equal(0);
    expect(plain(term.output)).to.include('the server withdrew its question');
  });
});
