// requestState of multi round-trip requests: signed, bound to its request and caller, expiring.
import { expect } from 'chai';
import { ManualClock } from '../../lib/clock.js';
import { InvalidRequestStateError, RequestStateCodec, paramsDigest } from '../../lib/modern/request-state.js';

const KEY = 'k'.repeat(32);
const FOR = { method: 'tools/call', digest: paramsDigest({ name: 't', arguments: { a: 1 } }) };

function reason(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    if (e instanceof InvalidRequestStateError) return e.reason;
    throw e;
  }
  return undefined;
}

describe('modern/request-state', () => {
  it('opens what it sealed, in another codec holding the same key (a restarted or sibling process)', () => {
    const token = new RequestStateCodec({ key: KEY }).seal({ ...FOR, answers: { a: { action: 'accept' } }, round: 1 });
    const state = new RequestStateCodec({ key: KEY }).open(token, FOR);
    expect(state.answers).to.deep.equal({ a: { action: 'accept' } });
    expect(state.round).to.equal(1);
  });

  it('[MRTR-008] [MRTR-009] [MRTR-010] [ELICIT-025] [ELICIT-084] refuses a tampered, foreign-key, other-request, other-caller or malformed state', () => {
    const codec = new RequestStateCodec({ key: KEY });
    const token = codec.seal({ ...FOR, principal: 'alice', answers: {}, round: 1 });
    const forAlice = { ...FOR, principal: 'alice' };
    expect(reason(() => codec.open(token, forAlice))).to.equal(undefined);
    const body = token.split('.')[1]!;
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), answers: { x: 1 } })).toString('base64url');
    expect(reason(() => codec.open(token.replace(body, forged), forAlice))).to.equal('signature');
    expect(reason(() => new RequestStateCodec({ key: 'z'.repeat(32) }).open(token, forAlice))).to.equal('signature');
    expect(reason(() => codec.open(token, { ...forAlice, digest: paramsDigest({ name: 't', arguments: { a: 2 } }) }))).to.equal('foreign');
    expect(reason(() => codec.open(token, { ...forAlice, method: 'prompts/get' }))).to.equal('foreign');
    expect(reason(() => codec.open(token, { ...FOR, principal: 'mallory' }))).to.equal('foreign');
    expect(reason(() => codec.open('garbage', forAlice))).to.equal('malformed');
    expect(reason(() => codec.open(42, forAlice))).to.equal('malformed');
  });

  it('[MRTR-011] expires after ttlMs on the server clock', () => {
    const clock = new ManualClock(1_000);
    const codec = new RequestStateCodec({ key: KEY, ttlMs: 500, clock });
    const token = codec.seal({ ...FOR, answers: {}, round: 1 });
    clock.advance(499);
    expect(reason(() => codec.open(token, FOR))).to.equal(undefined);
    clock.advance(1);
    expect(reason(() => codec.open(token, FOR))).to.equal('expired');
  });

  it('digests params independently of key order and of _meta / inputResponses / requestState', () => {
    expect(paramsDigest({ a: 1, b: { c: [1, 2], d: 'x' } })).to.equal(paramsDigest({ b: { d: 'x', c: [1, 2] }, a: 1, _meta: { z: 1 }, inputResponses: {}, requestState: 's' }));
    expect(paramsDigest({ a: 1 })).to.not.equal(paramsDigest({ a: 2 }));
  });

  it('refuses a key shorter than 32 bytes', () => {
    expect(() => new RequestStateCodec({ key: 'short' })).to.throw(TypeError, /32 bytes/);
  });
});
