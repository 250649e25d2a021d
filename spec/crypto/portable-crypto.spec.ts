// Our plain-TypeScript SHA-256/HMAC and Buffer-free byte codecs (what mcp-actors/web uses on a
// Worker without nodejs_compat) against node:crypto and Buffer on many random inputs.
import { expect } from 'chai';
import * as nodeCrypto from 'node:crypto';
import { decodePortable, encodePortable, utf8ByteLengthPortable } from '../../lib/crypto/bytes.js';
import { digestsInUse, hmacSha256, sha256, timingSafeEqual, useDigests } from '../../lib/crypto/digest.js';
import { randomBytes, randomHex, randomUUID } from '../../lib/crypto/random.js';
import { hmacSha256 as portableHmac, sha256 as portableSha } from '../../lib/crypto/sha256.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const nodeSha = (b: Uint8Array) => nodeCrypto.createHash('sha256').update(b).digest('hex');
const nodeHmac = (k: Uint8Array, b: Uint8Array) => nodeCrypto.createHmac('sha256', k).update(b).digest('hex');

/** Lengths around every padding boundary (55/56/64 bytes and their multiples) plus random ones. */
const LENGTHS = [0, 1, 3, 31, 32, 54, 55, 56, 57, 63, 64, 65, 111, 119, 120, 127, 128, 129, 1000, 4096, 65_537];
for (let i = 0; i < 200; i++) LENGTHS.push(nodeCrypto.randomInt(0, 3000));

describe('portable crypto (lib/crypto): SHA-256, HMAC-SHA-256, base64, UTF-8 length', () => {
  it('SHA-256 equals node:crypto on empty, 55/56/64-byte boundaries and 200 random lengths', () => {
    for (const n of LENGTHS) {
      const data = nodeCrypto.randomBytes(n);
      expect(hex(portableSha(data)), `length ${n}`).to.equal(nodeSha(data));
    }
    // The FIPS 180-4 example "abc" and a subarray view (offset into a larger buffer).
    expect(hex(portableSha(new TextEncoder().encode('abc')))).to.equal('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const big = nodeCrypto.randomBytes(300);
    expect(hex(portableSha(big.subarray(7, 207)))).to.equal(nodeSha(big.subarray(7, 207)));
  });

  it('HMAC-SHA-256 equals node:crypto for empty, short, 64-byte and long (hashed) keys', () => {
    const keyLengths = [0, 1, 32, 63, 64, 65, 100, 200];
    for (const kn of keyLengths) {
      for (const n of LENGTHS.slice(0, 60)) {
        const key = nodeCrypto.randomBytes(kn);
        const data = nodeCrypto.randomBytes(n);
        expect(hex(portableHmac(key, data)), `key ${kn}, data ${n}`).to.equal(nodeHmac(key, data));
      }
    }
  });

  it('the registered digests (node:crypto in this process) and the portable ones agree; useDigests switches between them', () => {
    const key = nodeCrypto.randomBytes(32);
    const data = nodeCrypto.randomBytes(500);
    const before = digestsInUse();
    try {
      useDigests(undefined);
      expect(digestsInUse()).to.equal('portable');
      const portable = [hex(sha256(data)), hex(hmacSha256(key, data))];
      useDigests({ sha256: (d) => nodeCrypto.createHash('sha256').update(d).digest(), hmacSha256: (k, d) => nodeCrypto.createHmac('sha256', k).update(d).digest() });
      expect(digestsInUse()).to.equal('registered');
      expect([hex(sha256(data)), hex(hmacSha256(key, data))]).to.deep.equal(portable);
    } finally {
      if (before === 'portable') useDigests(undefined);
    }
  });

  it('timingSafeEqual tells equal bytes from bytes that differ anywhere or in length', () => {
    const a = nodeCrypto.randomBytes(32);
    expect(timingSafeEqual(a, Uint8Array.from(a))).to.equal(true);
    for (const at of [0, 15, 31]) {
      const b = Uint8Array.from(a);
      b[at]! ^= 1;
      expect(timingSafeEqual(a, b)).to.equal(false);
    }
    expect(timingSafeEqual(a, a.subarray(0, 31))).to.equal(false);
    expect(timingSafeEqual(new Uint8Array(0), new Uint8Array(0))).to.equal(true);
  });

  it('base64 / base64url encode and decode as Buffer does, on random bytes and on junk', () => {
    for (const n of LENGTHS.slice(0, 80)) {
      const data = nodeCrypto.randomBytes(n);
      const b64 = Buffer.from(data).toString('base64');
      const b64url = Buffer.from(data).toString('base64url');
      expect(encodePortable(data, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', true)).to.equal(b64);
      expect(encodePortable(data)).to.equal(b64url);
      expect(hex(decodePortable(b64url))).to.equal(hex(data));
      expect(hex(decodePortable(b64))).to.equal(hex(data));
    }
    for (const junk of ['', 'a', 'ab', 'a*b=cd', 'YWJj=ZA', '!!!!', 'Y W J j', 'é', 'YQ']) {
      expect(hex(decodePortable(junk)), junk).to.equal(Buffer.from(junk, 'base64url').toString('hex'));
    }
  });

  it('counts UTF-8 bytes as Buffer.byteLength does (ASCII, 2-, 3-, 4-byte, lone surrogates)', () => {
    for (const s of ['', 'abc', 'é', '€', '😀', 'a😀b', '\ud800', '\udc00x', 'x\ud800', '\ud800\ud800\udc00', 'ÿ'.repeat(100)]) {
      expect(utf8ByteLengthPortable(s), JSON.stringify(s)).to.equal(Buffer.byteLength(s, 'utf8'));
    }
  });

  it('random bytes and ids come from WebCrypto: the asked size (past 65 536 bytes too), distinct, v4 UUIDs', () => {
    expect(randomBytes(0).byteLength).to.equal(0);
    const big = randomBytes(200_000);
    expect(big.byteLength).to.equal(200_000);
    // The last chunk is filled too (all-zero 1 000 bytes would be a 2^-8000 event).
    expect(big.subarray(199_000).some((b) => b !== 0)).to.equal(true);
    // Small sizes come from a pool refilled every 4 KiB: 2 000 ids of 16 bytes cross several refills, none repeats.
    const ids = new Set(Array.from({ length: 2000 }, () => Buffer.from(randomBytes(16)).toString('hex')));
    expect(ids.size).to.equal(2000);
    expect(randomHex(16)).to.match(/^[0-9a-f]{32}$/).and.not.equal(randomHex(16));
    expect(randomUUID()).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
