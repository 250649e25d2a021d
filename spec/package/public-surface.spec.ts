import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { publicSurface, renderSurface, SNAPSHOT, type EntrySurface } from '../../scripts/public-surface.js';
import * as errors from '../../lib/errors.js';
// The entries' sources (package.json maps mcp-actors/client and mcp-actors/server to their builds).
import * as clientEntry from '../../lib/entries/client.js';
import * as serverEntry from '../../lib/entries/server.js';

/** The error classes of lib/errors.ts (not its helper functions). */
const ERROR_CLASSES = Object.entries(errors)
  .filter(([, v]) => typeof v === 'function' && (v as { prototype?: unknown }).prototype instanceof Error)
  .map(([name]) => name)
  .sort();

describe('package: the public surface (package.json exports)', function () {
  this.timeout(60_000);
  let surface: EntrySurface[];
  before(() => {
    surface = publicSurface();
  });
  const entry = (name: string): EntrySurface => surface.find((e) => e.name === name)!;

  it('every entry lists its exports by name: no `export *`', () => {
    expect(surface.filter((e) => e.starExports.length > 0).map((e) => `${e.source}: ${e.starExports.join('; ')}`)).to.deep.equal([]);
  });

  it('each entry exports what the committed snapshot says (run `npm run surface` to change it on purpose)', () => {
    expect(existsSync(SNAPSHOT), 'spec/package/public-surface.txt').to.equal(true);
    expect(renderSurface(surface)).to.equal(readFileSync(SNAPSHOT, 'utf8'));
  });

  it('no entry exports the internals of the request core (RequestCore, RequestStateCodec, EnvelopeRefusal, the session tables)', () => {
    const internal = ['RequestCore', 'RequestStateCodec', 'EnvelopeRefusal', 'HandlerTable', 'ModernDispatch', 'wireErrorOf'];
    for (const e of surface) {
      const names = e.exports.map((x) => x.slice(x.indexOf(' ') + 1));
      expect(names.filter((n) => internal.includes(n)), e.name).to.deep.equal([]);
    }
  });

  it('every entry whose calls throw the protocol errors exports each of their classes as a value', () => {
    expect(ERROR_CLASSES).to.include.members(['McpError', 'RequestCancelledError', 'RequestTimeoutError', 'ConnectionClosedError', 'TransportError']);
    for (const name of ['.', './client', './server', './web', './host', './streams']) {
      const values = entry(name).exports.filter((x) => x.startsWith('value ')).map((x) => x.slice(6));
      expect(ERROR_CLASSES.filter((c) => !values.includes(c)), name).to.deep.equal([]);
    }
  });

  it("`import { RequestCancelledError } from 'mcp-actors/client'` gives the class a cancelled call rejects with", () => {
    expect(clientEntry.RequestCancelledError).to.equal(errors.RequestCancelledError);
    expect(serverEntry.McpError).to.equal(errors.McpError);
  });
});
