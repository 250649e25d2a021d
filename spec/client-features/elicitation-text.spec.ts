import { expect } from 'chai';
import { describeElicitation, inertSegments } from '../../lib/client-features/elicitation-text.js';

/** Every segment of a display, wherever it is. */
function allSegments(d: ReturnType<typeof describeElicitation>) {
  return [
    ...d.message,
    ...d.fields.flatMap((f) => [...(f.title ?? []), ...(f.description ?? []), ...(f.choices ?? []).flatMap((c) => c.label)]),
  ];
}

describe('client features: elicitation text without links', () => {
  it('[ELICIT-051] a form’s URLs, in the message, titles, descriptions and choices, come back inert', () => {
    const d = describeElicitation({
      message: 'Confirm at https://evil.example/login?next=1, then answer.',
      requestedSchema: {
        type: 'object',
        properties: {
          repo: { type: 'string', title: 'Repo (www.example.com)', description: 'Rules: http://docs.example/rules.' },
          plan: { type: 'string', oneOf: [{ const: 'pro', title: 'Pro — https://example.com/pro' }] },
          lang: { type: 'string', enum: ['en'], enumNames: ['English'] },
        },
      },
    });
    expect(d.mode).to.equal('form');
    expect(d.link).to.equal(undefined);
    expect(d.message).to.deep.equal([
      { kind: 'text', text: 'Confirm at ' },
      { kind: 'inert-url', text: 'https://evil.example/login?next=1' },
      { kind: 'text', text: ', then answer.' },
    ]);
    expect(d.fields.map((f) => f.name)).to.deep.equal(['repo', 'plan', 'lang']);
    expect(d.fields[0]!.title).to.deep.equal([{ kind: 'text', text: 'Repo (' }, { kind: 'inert-url', text: 'www.example.com' }, { kind: 'text', text: ')' }]);
    expect(d.fields[0]!.description).to.deep.equal([{ kind: 'text', text: 'Rules: ' }, { kind: 'inert-url', text: 'http://docs.example/rules' }, { kind: 'text', text: '.' }]);
    expect(d.fields[1]!.choices).to.deep.equal([{ value: 'pro', label: [{ kind: 'text', text: 'Pro — ' }, { kind: 'inert-url', text: 'https://example.com/pro' }] }]);
    expect(d.fields[2]!.choices).to.deep.equal([{ value: 'en', label: [{ kind: 'text', text: 'English' }] }]);
    // Nothing is lost: the segments put back together are the original text.
    expect(d.message.map((s) => s.text).join('')).to.equal('Confirm at https://evil.example/login?next=1, then answer.');
    expect(allSegments(d).filter((s) => s.kind === 'inert-url')).to.have.length(4);
  });

  it('[ELICIT-051] in URL mode only the url field is a link (with its host); URLs in the message stay inert', () => {
    const d = describeElicitation({
      mode: 'url',
      elicitationId: 'e1',
      url: 'https://auth.example.com/connect?state=abc',
      message: 'Connect your account. Trouble? https://support.example.com',
    });
    expect(d.link).to.deep.equal({ url: 'https://auth.example.com/connect?state=abc', host: 'auth.example.com' });
    expect(d.message).to.deep.equal([
      { kind: 'text', text: 'Connect your account. Trouble? ' },
      { kind: 'inert-url', text: 'https://support.example.com' },
    ]);
    // A url that does not parse is no link at all.
    expect(describeElicitation({ mode: 'url', url: 'not a url', message: 'm' }).link).to.equal(undefined);
  });

  it('plain text stays one segment; a non-elicitation is a TypeError', () => {
    expect(inertSegments('Your name?')).to.deep.equal([{ kind: 'text', text: 'Your name?' }]);
    expect(inertSegments('')).to.deep.equal([{ kind: 'text', text: '' }]);
    expect(inertSegments('https://only.example')).to.deep.equal([{ kind: 'inert-url', text: 'https://only.example' }]);
    expect(() => describeElicitation({ requestedSchema: {} })).to.throw(TypeError);
  });
});
