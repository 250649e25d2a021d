// x-mcp-header annotations a server recognizes: primitive properties reachable through
// `properties` chains only, header names unique case-insensitively.
import { expect } from 'chai';
import { argumentAt, scanParamHeaders } from '../../lib/modern/param-headers.js';

describe('modern/param-headers', () => {
  it('[HTTP-143] [HTTP-145] [HTTP-146] finds primitive annotations through properties chains, not through items or composition', () => {
    const schema = {
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        priority: { type: 'integer', 'x-mcp-header': 'Priority' },
        ratio: { type: 'number', 'x-mcp-header': 'Ratio' },
        target: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
        list: { type: 'array', items: { type: 'object', properties: { x: { type: 'string', 'x-mcp-header': 'X' } } } },
        either: { anyOf: [{ type: 'string', 'x-mcp-header': 'Either' }] },
        dup: { type: 'string', 'x-mcp-header': 'region' },
        bad: { type: 'string', 'x-mcp-header': 'Has Space' },
      },
    };
    expect(scanParamHeaders(schema).map((h) => [h.param, h.header, h.type])).to.deep.equal([
      ['region', 'Region', 'string'],
      ['priority', 'Priority', 'integer'],
      ['target.zone', 'Zone', 'string'],
    ]);
  });

  it('reads an argument by its path', () => {
    expect(argumentAt({ target: { zone: 'eu' } }, ['target', 'zone'])).to.equal('eu');
    expect(argumentAt({ target: 'eu' }, ['target', 'zone'])).to.equal(undefined);
    expect(argumentAt(null, ['a'])).to.equal(undefined);
  });
});
