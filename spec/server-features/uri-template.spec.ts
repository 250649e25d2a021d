import { expect } from 'chai';
import {
  DEFAULT_MAX_URI_LENGTH,
  MAX_TEMPLATE_EXPRESSIONS,
  UriTemplate,
  UriTemplateError,
  expandUriTemplate,
  uriProblem,
} from '../../lib/server-features/uri-template.js';

// RFC 6570 §3.2 "Expression Expansion": the variables every example of the section uses.
const RFC_VARS = {
  count: ['one', 'two', 'three'],
  dom: ['example', 'com'],
  dub: 'me/too',
  hello: 'Hello World!',
  half: '50%',
  var: 'value',
  who: 'fred',
  base: 'http://example.com/home/',
  path: '/foo/bar',
  list: ['red', 'green', 'blue'],
  keys: { semi: ';', dot: '.', comma: ',' },
  v: '6',
  x: '1024',
  y: '768',
  empty: '',
  empty_keys: {},
  undef: null,
};

// RFC 6570 §1.2 (levels 1-4) and §3.2.2-3.2.9, in the RFC's own words.
const RFC_EXAMPLES: [string, string][] = [
  // Level 1, simple string expansion (§3.2.2)
  ['{var}', 'value'],
  ['{hello}', 'Hello%20World%21'],
  ['{half}', '50%25'],
  ['O{empty}X', 'OX'],
  ['O{undef}X', 'OX'],
  ['{x,y}', '1024,768'],
  ['{x,hello,y}', '1024,Hello%20World%21,768'],
  ['?{x,empty}', '?1024,'],
  ['?{x,undef}', '?1024'],
  ['?{undef,y}', '?768'],
  ['{var:3}', 'val'],
  ['{var:30}', 'value'],
  ['{list}', 'red,green,blue'],
  ['{list*}', 'red,green,blue'],
  ['{keys}', 'semi,%3B,dot,.,comma,%2C'],
  ['{keys*}', 'semi=%3B,dot=.,comma=%2C'],
  // Reserved expansion (§3.2.3)
  ['{+var}', 'value'],
  ['{+hello}', 'Hello%20World!'],
  ['{+half}', '50%25'],
  ['{base}index', 'http%3A%2F%2Fexample.com%2Fhome%2Findex'],
  ['{+base}index', 'http://example.com/home/index'],
  ['O{+empty}X', 'OX'],
  ['O{+undef}X', 'OX'],
  ['{+path}/here', '/foo/bar/here'],
  ['here?ref={+path}', 'here?ref=/foo/bar'],
  ['up{+path}{var}/here', 'up/foo/barvalue/here'],
  ['{+x,hello,y}', '1024,Hello%20World!,768'],
  ['{+path,x}/here', '/foo/bar,1024/here'],
  ['{+path:6}/here', '/foo/b/here'],
  ['{+list}', 'red,green,blue'],
  ['{+list*}', 'red,green,blue'],
  ['{+keys}', 'semi,;,dot,.,comma,,'],
  ['{+keys*}', 'semi=;,dot=.,comma=,'],
  // Fragment expansion (§3.2.4)
  ['{#var}', '#value'],
  ['{#hello}', '#Hello%20World!'],
  ['{#half}', '#50%25'],
  ['foo{#empty}', 'foo#'],
  ['foo{#undef}', 'foo'],
  ['{#x,hello,y}', '#1024,Hello%20World!,768'],
  ['{#path,x}/here', '#/foo/bar,1024/here'],
  ['{#path:6}/here', '#/foo/b/here'],
  ['{#list}', '#red,green,blue'],
  ['{#list*}', '#red,green,blue'],
  ['{#keys}', '#semi,;,dot,.,comma,,'],
  ['{#keys*}', '#semi=;,dot=.,comma=,'],
  // Label expansion (§3.2.5)
  ['{.who}', '.fred'],
  ['{.who,who}', '.fred.fred'],
  ['{.half,who}', '.50%25.fred'],
  ['www{.dom*}', 'www.example.com'],
  ['X{.var}', 'X.value'],
  ['X{.empty}', 'X.'],
  ['X{.undef}', 'X'],
  ['X{.var:3}', 'X.val'],
  ['X{.list}', 'X.red,green,blue'],
  ['X{.list*}', 'X.red.green.blue'],
  ['X{.keys}', 'X.semi,%3B,dot,.,comma,%2C'],
  ['X{.keys*}', 'X.semi=%3B.dot=..comma=%2C'],
  ['X{.empty_keys}', 'X'],
  ['X{.empty_keys*}', 'X'],
  // Path segment expansion (§3.2.6)
  ['{/who}', '/fred'],
  ['{/who,who}', '/fred/fred'],
  ['{/half,who}', '/50%25/fred'],
  ['{/who,dub}', '/fred/me%2Ftoo'],
  ['{/var}', '/value'],
  ['{/var,empty}', '/value/'],
  ['{/var,undef}', '/value'],
  ['{/var,x}/here', '/value/1024/here'],
  ['{/var:1,var}', '/v/value'],
  ['{/list}', '/red,green,blue'],
  ['{/list*}', '/red/green/blue'],
  ['{/list*,path:4}', '/red/green/blue/%2Ffoo'],
  ['{/keys}', '/semi,%3B,dot,.,comma,%2C'],
  ['{/keys*}', '/semi=%3B/dot=./comma=%2C'],
  // Path-style parameter expansion (§3.2.7)
  ['{;who}', ';who=fred'],
  ['{;half}', ';half=50%25'],
  ['{;empty}', ';empty'],
  ['{;v,empty,who}', ';v=6;empty;who=fred'],
  ['{;v,bar,who}', ';v=6;who=fred'],
  ['{;x,y}', ';x=1024;y=768'],
  ['{;x,y,empty}', ';x=1024;y=768;empty'],
  ['{;x,y,undef}', ';x=1024;y=768'],
  ['{;hello:5}', ';hello=Hello'],
  ['{;list}', ';list=red,green,blue'],
  ['{;list*}', ';list=red;list=green;list=blue'],
  ['{;keys}', ';keys=semi,%3B,dot,.,comma,%2C'],
  ['{;keys*}', ';semi=%3B;dot=.;comma=%2C'],
  // Form-style query expansion (§3.2.8)
  ['{?who}', '?who=fred'],
  ['{?half}', '?half=50%25'],
  ['{?x,y}', '?x=1024&y=768'],
  ['{?x,y,empty}', '?x=1024&y=768&empty='],
  ['{?x,y,undef}', '?x=1024&y=768'],
  ['{?var:3}', '?var=val'],
  ['{?list}', '?list=red,green,blue'],
  ['{?list*}', '?list=red&list=green&list=blue'],
  ['{?keys}', '?keys=semi,%3B,dot,.,comma,%2C'],
  ['{?keys*}', '?semi=%3B&dot=.&comma=%2C'],
  // Form-style query continuation (§3.2.9)
  ['{&who}', '&who=fred'],
  ['{&half}', '&half=50%25'],
  ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
  ['{&x,y,empty}', '&x=1024&y=768&empty='],
  ['{&var:3}', '&var=val'],
  ['{&list}', '&list=red,green,blue'],
  ['{&list*}', '&list=red&list=green&list=blue'],
  ['{&keys}', '&keys=semi,%3B,dot,.,comma,%2C'],
  ['{&keys*}', '&semi=%3B&dot=.&comma=%2C'],
  // §1.2 level examples not repeated above
  ['{count}', 'one,two,three'],
  ['{count*}', 'one,two,three'],
  ['{/count}', '/one,two,three'],
  ['{/count*}', '/one/two/three'],
  ['{;count}', ';count=one,two,three'],
  ['{;count*}', ';count=one;count=two;count=three'],
  ['{?count}', '?count=one,two,three'],
  ['{?count*}', '?count=one&count=two&count=three'],
  ['{&count*}', '&count=one&count=two&count=three'],
];

/** Every object reachable from `root` (own enumerable properties and array items). */
function reachable(root: unknown): unknown[] {
  const seen = new Set<unknown>();
  const stack = [root];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object' || seen.has(v)) continue;
    seen.add(v);
    for (const x of Object.values(v as object)) stack.push(x);
  }
  return [...seen];
}

describe('URI templates (RFC 6570)', () => {
  describe('expansion, levels 1 to 4', () => {
    for (const [template, expected] of RFC_EXAMPLES) {
      it(`${template} → ${expected}`, () => {
        expect(new UriTemplate(template).expand(RFC_VARS)).to.equal(expected);
      });
    }

    it('encodes non-ASCII as UTF-8 percent-encoding, keeps pct-triplets only in reserved expansion', () => {
      expect(expandUriTemplate('{x}', { x: 'é/☃' })).to.equal('%C3%A9%2F%E2%98%83');
      expect(expandUriTemplate('{+x}', { x: 'a%20b c' })).to.equal('a%20b%20c');
      expect(expandUriTemplate('{x}', { x: 'a%20b' })).to.equal('a%2520b');
      expect(expandUriTemplate('{x:2}', { x: '☃☃☃' })).to.equal('%E2%98%83%E2%98%83');
      expect(expandUriTemplate('{n}{b}', { n: 42, b: true })).to.equal('42true');
    });

    it('refuses a value with an unpaired surrogate', () => {
      expect(() => expandUriTemplate('{x}', { x: 'a\ud800b' })).to.throw(UriTemplateError, /surrogate/);
    });

    it('lists variable names in order of appearance', () => {
      expect(new UriTemplate('{a}/{+b}{?c,a}{#d*}').variableNames).to.deep.equal(['a', 'b', 'c', 'd']);
      expect(UriTemplate.isTemplate('file:///{path}')).to.equal(true);
      expect(UriTemplate.isTemplate('file:///path')).to.equal(false);
    });
  });

  describe('syntax', () => {
    const bad: [string, RegExp][] = [
      ['users/{id', /Unclosed/],
      ['users/{a{b}}', /Nested/],
      ['users/id}', /Unmatched/],
      ['{=x}', /reserved/],
      ['{|x}', /reserved/],
      ['{x:0}', /prefix/],
      ['{x:10000}', /prefix/],
      ['{x y}', /Invalid character/],
      ['{}', /Empty variable/],
      ['{a..b}', /Invalid variable/],
      ['{a.}', /ends with/],
      ['a b{x}', /not allowed/],
      ['a%zz{x}', /%XX/],
    ];
    for (const [template, message] of bad) {
      it(`refuses ${JSON.stringify(template)}`, () => {
        expect(() => new UriTemplate(template)).to.throw(UriTemplateError, message);
      });
    }

    it('refuses templates over the length limit and with too many expressions', () => {
      expect(() => new UriTemplate('x'.repeat(9000))).to.throw(UriTemplateError, /at most 8192/).with.property('reason', 'too-long');
      expect(() => new UriTemplate('{a}'.repeat(MAX_TEMPLATE_EXPRESSIONS + 1))).to.throw(UriTemplateError, /Too many expressions/);
      expect(() => new UriTemplate('x'.repeat(100), { maxLength: 50 })).to.throw(UriTemplateError);
    });

    it('accepts pct-encoded variable names and dotted names', () => {
      expect(new UriTemplate('{a%20b,c.d}').variableNames).to.deep.equal(['a%20b', 'c.d']);
    });
  });

  describe('matching', () => {
    const m = (template: string, uri: string) => new UriTemplate(template).match(uri);

    it('extracts simple variables, percent-decoded', () => {
      expect(m('users/{id}/posts/{post}', 'users/42/posts/hello%20world')).to.deep.equal({ id: '42', post: 'hello world' });
      expect(m('file:///{+path}', 'file:///src/a%20b.ts')).to.deep.equal({ path: 'src/a b.ts' });
      expect(m('users/{id}', 'accounts/42')).to.equal(null);
    });

    it('a simple variable does not span "/" but a reserved one does', () => {
      expect(m('repo://{owner}/{name}', 'repo://a/b/c')).to.equal(null);
      expect(m('repo://{owner}/{+name}', 'repo://a/b/c')).to.deep.equal({ owner: 'a', name: 'b/c' });
    });

    it('resolves ambiguity by the longest span that lets the rest match (no backtracking)', () => {
      expect(m('{id}.json', 'a.b.json')).to.deep.equal({ id: 'a.b' });
      expect(m('X{.a}{.b}', 'X.file.tar.gz')).to.deep.equal({ a: 'file.tar', b: 'gz' });
      expect(m('{+path}{?q}', 'a/b?q=1')).to.deep.equal({ path: 'a/b', q: '1' });
      expect(m('{a}-{b}', 'x-y-z')).to.deep.equal({ a: 'x-y', b: 'z' });
    });

    it('query parameters match by name in any order; extra ones are ignored; missing ones are absent', () => {
      expect(m('search{?q,page}', 'search?page=2&q=cats&utm=x')).to.deep.equal({ q: 'cats', page: '2' });
      expect(m('search{?q,page}', 'search')).to.deep.equal({});
      expect(m('search{?q}{&lang}', 'search?q=a&lang=fr')).to.deep.equal({ q: 'a', lang: 'fr' });
    });

    it('explode gives lists, or a record for named pairs', () => {
      expect(m('{/path*}', '/a/b/c')).to.deep.equal({ path: ['a', 'b', 'c'] });
      expect(m('find{?tag*}', 'find?tag=a&tag=b')).to.deep.equal({ tag: ['a', 'b'] });
      expect(m('find{?opts*}', 'find?a=1&b=2')).to.deep.equal({ opts: { a: '1', b: '2' } });
      expect(m('{;list*}', ';list=red;list=green')).to.deep.equal({ list: ['red', 'green'] });
    });

    it('a name from the URI cannot reach the prototype', () => {
      const r = m('find{?opts*}', 'find?__proto__=x&constructor=y') as Record<string, Record<string, string>>;
      expect(Object.getPrototypeOf(r.opts)).to.equal(Object.prototype);
      expect(Object.prototype.hasOwnProperty.call(r.opts, '__proto__')).to.equal(true);
      expect(({} as Record<string, unknown>).x).to.equal(undefined);
    });

    it('honours prefix modifiers when matching', () => {
      expect(m('{code:3}', 'abc')).to.deep.equal({ code: 'abc' });
      expect(m('{code:3}', 'abcd')).to.equal(null);
    });

    it('an expression without a leading character needs at least one character', () => {
      expect(m('users/{id}', 'users/')).to.equal(null);
      expect(m('X{.ext}', 'X')).to.deep.equal({});
      expect(m('X{.ext}', 'X.')).to.deep.equal({ ext: '' });
      expect(m('{;empty}', ';empty')).to.deep.equal({ empty: '' });
    });

    it('reverses its own expansion for string values', () => {
      const cases: [string, Record<string, string>][] = [
        ['{/var,x}/here', { var: 'value', x: '1024' }],
        ['{;x,y,empty}', { x: '1024', y: '768', empty: '' }],
        ['{?x,y,empty}', { x: '1024', y: '768', empty: '' }],
        ['users/{who}/{+path}{?q}{#frag}', { who: 'fred', path: 'a/b c', q: 'Hello World!', frag: 'top' }],
        ['{x,hello,y}', { x: '1024', hello: 'Hello World!', y: '768' }],
      ];
      for (const [template, vars] of cases) {
        const t = new UriTemplate(template);
        expect(t.match(t.expand(vars)), template).to.deep.equal(vars);
      }
    });

    it('malformed percent-encoding is an error, not a match', () => {
      for (const uri of ['users/%E0%A4', 'users/%zz', 'users/%', 'users/%C0%AF']) {
        expect(() => m('users/{id}', uri), uri).to.throw(UriTemplateError).with.property('reason', 'bad-encoding');
      }
    });

    it('[RES-008] refuses URIs over the length limit before looking at them', () => {
      const t = new UriTemplate('x://{a}');
      expect(() => t.match('x://' + 'a'.repeat(DEFAULT_MAX_URI_LENGTH))).to.throw(UriTemplateError).with.property('reason', 'too-long');
      expect(() => new UriTemplate('x://{a}', { maxUriLength: 10 }).match('x://abcdefghij')).to.throw(UriTemplateError, /at most 10/);
    });

    it('[RES-008] adversarial 50,000-character URIs return (linear scan, no backtracking)', () => {
      // Each of these makes a backtracking regex of the same template take polynomial or
      // exponential time; the scanner does at most (expressions × length) steps.
      const cases: [string, string, boolean][] = [
        ['{a}-{b}-{c}-{d}-{e}.json', '-'.repeat(50_000), false],
        ['{a}-{b}-{c}-{d}-{e}.json', 'a-'.repeat(25_000) + '!', false],
        ['{+a}/{+b}/{+c}/x', '/'.repeat(50_000), false],
        ['{+a}aaaaaaaaab', 'a'.repeat(50_000), false],
        ['res://{a}{b}{c}{d}{e}{f}{g}{h}z', 'res://' + 'y'.repeat(49_990), false],
        ['x{/p*}{?q*}{#f}', 'x' + '/a'.repeat(24_000) + '?' + '&'.repeat(1_000), true],
        ['{;a,b,c*}', ';' + 'a=1;'.repeat(12_000), true],
      ];
      for (const [template, uri, matches] of cases) {
        const r = new UriTemplate(template).match(uri);
        expect(r === null, template).to.equal(!matches);
      }
    });

    it('the matcher is a scanner: a parsed template holds no regular expression', () => {
      const t = new UriTemplate('users/{id}/{+path}{?q*}{#f}');
      t.match('users/1/a/b?q=1#x');
      expect(reachable(t).filter((v) => v instanceof RegExp)).to.deep.equal([]);
    });
  });

  describe('[RES-005] [RES-008] uriProblem (RFC 3986 shape of a URI)', () => {
    it('accepts absolute URIs with standard and custom schemes, IRIs too', () => {
      for (const ok of ['file:///a/b.txt', 'https://example.com/x?y=1#z', 'custom+app.v2://thing', 'db:table/1', 'file:///h%C3%A9', 'file:///hé']) {
        expect(uriProblem(ok), ok).to.equal(undefined);
      }
    });
    it('refuses missing schemes, spaces, controls, bad escapes and unpaired surrogates', () => {
      const bad: [string, RegExp][] = [
        ['', /empty/],
        ['no-scheme', /no scheme/],
        ['1http://x', /scheme/],
        ['ht tp://x', /scheme/],
        ['file:///a b', /not allowed/],
        ['file:///a\u0000b', /not allowed/],
        ['file:///a<b>', /not allowed/],
        ['file:///50%', /%/],
        ['file:///%G1', /%/],
        ['file:///\ud800', /surrogate/],
      ];
      for (const [uri, re] of bad) expect(uriProblem(uri), JSON.stringify(uri)).to.match(re);
      expect(uriProblem('x:' + 'a'.repeat(100), 50)).to.match(/at most 50/);
    });
  });
});
