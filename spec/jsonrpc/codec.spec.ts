import { expect } from 'chai';
import {
  DEFAULT_MAX_FRAME_BYTES,
  sniffRequestId,
  decodeText,
  decodeValue,
  encodeFrame,
  oversizeInbound,
} from '../../lib/jsonrpc/codec.js';
import { ErrorCode } from '../../lib/jsonrpc/error-codes.js';
import type { Frame } from '../../lib/jsonrpc/message.js';
import type { Inbound, InvalidInbound } from '../../streams/inbound.js';
import { OversizeFrame } from '../../streams/transport.js';

const single = { allowBatch: false };
const batches = { allowBatch: true };
const text = (v: unknown): string => JSON.stringify(v);

function invalid(r: Inbound): InvalidInbound {
  expect(r.kind).to.equal('invalid');
  return r as InvalidInbound;
}

function expectInvalid(
  r: Inbound,
  code: number,
  id: string | number | null,
  respond: boolean,
  message?: string | RegExp,
): InvalidInbound {
  const inv = invalid(r);
  expect(inv.error.code, inv.error.message).to.equal(code);
  expect(inv.id).to.equal(id);
  expect(inv.respond).to.equal(respond);
  if (typeof message === 'string') expect(inv.error.message).to.equal(message);
  else if (message) expect(inv.error.message).to.match(message);
  return inv;
}

describe('jsonrpc/codec', () => {
  it('defaults the frame limit to 4 MiB', () => {
    expect(DEFAULT_MAX_FRAME_BYTES).to.equal(4 * 1024 * 1024);
  });

  describe('valid messages', () => {
    it('classifies a request', () => {
      const r = decodeText('{"jsonrpc":"2.0","id":1,"method":"ping"}', single);
      expect(r).to.deep.equal({ kind: 'request', msg: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    });

    it('accepts string ids and object params', () => {
      const r = decodeText(text({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'x' } }), single);
      expect(r.kind).to.equal('request');
    });

    it('classifies a notification', () => {
      const r = decodeText('{"jsonrpc":"2.0","method":"notifications/initialized"}', single);
      expect(r).to.deep.equal({ kind: 'notification', msg: { jsonrpc: '2.0', method: 'notifications/initialized' } });
    });

    it('classifies a success response', () => {
      const r = decodeText('{"jsonrpc":"2.0","id":7,"result":{}}', single);
      expect(r).to.deep.equal({ kind: 'response', msg: { jsonrpc: '2.0', id: 7, result: {} } });
    });

    it('classifies an error response, also with a null or missing id', () => {
      for (const id of [3, null, undefined]) {
        const r = decodeValue({ jsonrpc: '2.0', id, error: { code: -32601, message: 'nope' } }, single);
        expect(r.kind, String(id)).to.equal('response');
      }
    });

    it('[BASE-013] keeps _meta and unknown members, handing back the very same object', () => {
      const meta = { progressToken: 't', 'x.example/y': [1] };
      const msg = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: meta, a: 1 }, extra: true };
      const r = decodeValue(msg, single);
      expect(r.kind).to.equal('request');
      if (r.kind !== 'request') return;
      expect(r.msg).to.equal(msg);
      expect(r.msg.params?._meta).to.equal(meta);
    });

    it('keeps _meta and unknown members from text', () => {
      const r = decodeText('{"jsonrpc":"2.0","id":1,"result":{"_meta":{"k":1},"z":2},"x":3}', single);
      expect(r).to.deep.equal({
        kind: 'response',
        msg: { jsonrpc: '2.0', id: 1, result: { _meta: { k: 1 }, z: 2 }, x: 3 },
      });
    });
  });

  describe('parse errors', () => {
    it('answers -32700 with id null and the JSON.parse message', () => {
      const bad = '{"jsonrpc":"2.0","id":1,';
      let parseMessage = '';
      try {
        JSON.parse(bad);
      } catch (e) {
        parseMessage = (e as Error).message;
      }
      const inv = expectInvalid(decodeText(bad, single), ErrorCode.ParseError, null, true);
      expect(inv.error.message).to.contain(parseMessage).and.to.match(/^Parse error/);
    });

    it('treats an empty text as a parse error', () => {
      expectInvalid(decodeText('', single), ErrorCode.ParseError, null, true);
    });
  });

  describe('invalid requests', () => {
    for (const [label, value] of [
      ['a number', 1],
      ['a string', 'x'],
      ['null', null],
      ['a boolean', true],
    ] as const) {
      it(`rejects ${label} with -32600`, () => {
        expectInvalid(decodeValue(value, single), ErrorCode.InvalidRequest, null, true, /must be an object/);
        expectInvalid(decodeText(text(value), single), ErrorCode.InvalidRequest, null, true, /must be an object/);
      });
    }

    it('rejects a missing jsonrpc member, keeping the id', () => {
      expectInvalid(
        decodeText('{"id":5,"method":"ping"}', single),
        ErrorCode.InvalidRequest,
        5,
        true,
        'Invalid Request: "jsonrpc" is missing; it must be "2.0"',
      );
    });

    it('rejects a jsonrpc member other than "2.0"', () => {
      expectInvalid(decodeText('{"jsonrpc":"1.0","id":"a","method":"ping"}', single), ErrorCode.InvalidRequest, 'a', true, /"1\.0"/);
      expectInvalid(decodeText('{"jsonrpc":2,"id":1,"method":"ping"}', single), ErrorCode.InvalidRequest, 1, true, /got number/);
    });

    it('rejects a null request id', () => {
      expectInvalid(
        decodeText('{"jsonrpc":"2.0","id":null,"method":"ping"}', single),
        ErrorCode.InvalidRequest,
        null,
        true,
        'Invalid Request: MCP request ids must be a string or an integer, not null',
      );
    });

    it('rejects request ids of other types', () => {
      // NaN and Infinity cannot come from JSON text, but in-memory peers can send them.
      for (const id of [true, {}, [1], Number.NaN, Infinity]) {
        expectInvalid(
          decodeValue({ jsonrpc: '2.0', id, method: 'ping' }, single),
          ErrorCode.InvalidRequest,
          null,
          true,
          /request ids must be a string or an integer, got/,
        );
      }
    });

    it('rejects a method that is not a string, keeping the id', () => {
      expectInvalid(decodeText('{"jsonrpc":"2.0","id":9,"method":1}', single), ErrorCode.InvalidRequest, 9, true, /"method" must be a string, got number/);
      expectInvalid(decodeText('{"jsonrpc":"2.0","method":null}', single), ErrorCode.InvalidRequest, null, true, /got null/);
    });

    it('rejects a message with neither method nor result nor error', () => {
      expectInvalid(decodeText('{"jsonrpc":"2.0","id":4}', single), ErrorCode.InvalidRequest, 4, true, /needs "method"/);
    });
  });

  describe('invalid params', () => {
    // JSON-RPC 2.0 §4.2: params MUST be a structured value; anything else is an Invalid Request.
    for (const params of ['x', null, 3, false]) {
      it(`[BASE-002] rejects params ${JSON.stringify(params)} (not structured) with -32600 under the request id`, () => {
        const inv = expectInvalid(
          decodeValue({ jsonrpc: '2.0', id: 'r', method: 'tools/list', params }, single),
          ErrorCode.InvalidRequest,
          'r',
          true,
        );
        expect(inv.error.message).to.contain('"tools/list"').and.to.contain('"params"').and.to.contain('structured');
      });
    }

    it('rejects array params (structured, but MCP params are named) with -32602', () => {
      const inv = expectInvalid(
        decodeValue({ jsonrpc: '2.0', id: 'r', method: 'tools/list', params: [1] }, single),
        ErrorCode.InvalidParams,
        'r',
        true,
      );
      expect(inv.error.message).to.contain('"tools/list"').and.to.contain('"params" must be an object');
    });

    it('does not answer a notification with bad params', () => {
      expectInvalid(
        decodeText('{"jsonrpc":"2.0","method":"notifications/progress","params":[1]}', single),
        ErrorCode.InvalidParams,
        null,
        false,
        /got array/,
      );
    });

    it('does not answer a notification with string params, and calls it an Invalid Request', () => {
      expectInvalid(
        decodeText('{"jsonrpc":"2.0","method":"notifications/progress","params":"x"}', single),
        ErrorCode.InvalidRequest,
        null,
        false,
        /got string/,
      );
    });
  });

  describe('invalid responses (never answered)', () => {
    it('[BASE-007] [BASE-008] rejects a response with both result and error', () => {
      expectInvalid(
        decodeText('{"jsonrpc":"2.0","id":2,"result":{},"error":{"code":1,"message":"m"}}', single),
        ErrorCode.InvalidRequest,
        2,
        false,
        /both "result" and "error"/,
      );
    });

    for (const result of [[], 'x', null, 1]) {
      it(`rejects result ${JSON.stringify(result)}`, () => {
        expectInvalid(decodeValue({ jsonrpc: '2.0', id: 2, result }, single), ErrorCode.InvalidRequest, 2, false, /"result" must be an object/);
      });
    }

    for (const error of [
      { message: 'no code' },
      { code: 1.5, message: 'fraction' },
      { code: '1', message: 'string code' },
      { code: 1 },
      { code: 1, message: 2 },
    ]) {
      it(`rejects error ${JSON.stringify(error)}`, () => {
        expectInvalid(
          decodeValue({ jsonrpc: '2.0', id: 'e', error }, single),
          ErrorCode.InvalidRequest,
          'e',
          false,
          /integer "code" and a string "message"/,
        );
      });
    }

    it('rejects an error member that is not an object', () => {
      expectInvalid(decodeValue({ jsonrpc: '2.0', id: 1, error: 'boom' }, single), ErrorCode.InvalidRequest, 1, false, /"error" must be an object/);
    });

    it('rejects a success response without a usable id', () => {
      expectInvalid(decodeValue({ jsonrpc: '2.0', id: null, result: {} }, single), ErrorCode.InvalidRequest, null, false, /"id"/);
      expectInvalid(decodeValue({ jsonrpc: '2.0', result: {} }, single), ErrorCode.InvalidRequest, null, false, /got none/);
      expectInvalid(
        decodeValue({ jsonrpc: '2.0', id: true, error: { code: 1, message: 'm' } }, single),
        ErrorCode.InvalidRequest,
        null,
        false,
        /got boolean/,
      );
    });

    it('does not answer a response-like message with a bad jsonrpc member', () => {
      expectInvalid(decodeText('{"id":1,"result":{}}', single), ErrorCode.InvalidRequest, 1, false, /"jsonrpc" is missing/);
    });
  });

  describe('batches', () => {
    const batch = '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"n"}]';

    it('rejects a batch unless batches are allowed', () => {
      expectInvalid(
        decodeText(batch, single),
        ErrorCode.InvalidRequest,
        null,
        true,
        'Invalid Request: JSON-RPC batches are only allowed when protocol revision 2025-03-26 is negotiated',
      );
    });

    it('classifies the items of an allowed batch in order', () => {
      const r = decodeText(batch, batches);
      expect(r.kind).to.equal('batch');
      if (r.kind !== 'batch') return;
      expect(r.items.map((i) => i.kind)).to.deep.equal(['request', 'notification']);
    });

    it('rejects an empty batch', () => {
      expectInvalid(decodeText('[]', batches), ErrorCode.InvalidRequest, null, true, /empty batch/);
    });

    it('keeps good items next to a bad one', () => {
      const items = [
        { jsonrpc: '2.0', id: 1, method: 'a' },
        { jsonrpc: '2.0', id: null, method: 'b' },
        [{ jsonrpc: '2.0', id: 3, method: 'nested' }],
        { jsonrpc: '2.0', id: 4, result: {} },
      ];
      const r = decodeValue(items, batches);
      if (r.kind !== 'batch') expect.fail(`expected a batch, got ${r.kind}`);
      expect(r.items.map((i) => i.kind)).to.deep.equal(['request', 'invalid', 'invalid', 'response']);
      expect((r.items[2] as InvalidInbound).error.message).to.match(/got array/);
      expect(r.items[0]).to.deep.equal({ kind: 'request', msg: items[0] });
    });
  });

  describe('size limit', () => {
    const request = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"s":"' ;

    it('rejects a text over maxFrameBytes, naming both numbers and the option', () => {
      const t = request + 'x'.repeat(100) + '"}}';
      const inv = expectInvalid(decodeText(t, { maxFrameBytes: 64, allowBatch: false }), ErrorCode.InvalidRequest, 1, true);
      expect(inv.error.data).to.deep.equal({ size: t.length, limit: 64 });
      expect(inv.error.message).to.contain(String(t.length)).and.to.contain('64').and.to.contain('maxFrameBytes');
    });

    it('counts UTF-8 bytes, not UTF-16 units', () => {
      const body = request + 'é'.repeat(20) + '"}}'; // 20 more bytes than characters
      const bytes = Buffer.byteLength(body);
      expect(body.length).to.be.below(bytes);
      expectInvalid(decodeText(body, { maxFrameBytes: bytes - 1, allowBatch: false }), ErrorCode.InvalidRequest, 1, true);
      expect(decodeText(body, { maxFrameBytes: body.length, allowBatch: false }).kind).to.equal('invalid');
      expect(decodeText(body, { maxFrameBytes: bytes, allowBatch: false }).kind).to.equal('request');
    });

    it('accepts a text whose length times three passes the limit but whose bytes do not', () => {
      const t = request + 'x'.repeat(10) + '"}}';
      expect(decodeText(t, { maxFrameBytes: t.length, allowBatch: false }).kind).to.equal('request');
    });

    it('uses the 4 MiB default', () => {
      const t = request + 'x'.repeat(DEFAULT_MAX_FRAME_BYTES) + '"}}';
      const inv = expectInvalid(decodeText(t, single), ErrorCode.InvalidRequest, 1, true);
      expect(inv.error.data).to.deep.equal({ size: t.length, limit: DEFAULT_MAX_FRAME_BYTES });
    });

    it('decodes an OversizeFrame marker to the same error', () => {
      const r = decodeValue(new OversizeFrame(5000, 4096), single);
      expect(r).to.deep.equal(oversizeInbound(5000, 4096));
      expect((r as InvalidInbound).error.data).to.deep.equal({ size: 5000, limit: 4096 });
    });
  });

  describe('encodeFrame', () => {
    it('writes one line even when strings hold newlines and U+2028', () => {
      const frame: Frame = {
        jsonrpc: '2.0',
        id: 1,
        result: { text: 'a\nb\r\nc\u2028d\u2029e', _meta: { k: '\n' } },
      };
      const out = encodeFrame(frame);
      expect(out).not.to.contain('\n');
      expect(out).not.to.contain('\r');
      expect(JSON.parse(out)).to.deep.equal(frame);
    });

    it('encodes a batch as an array', () => {
      const out = encodeFrame([{ jsonrpc: '2.0', method: 'a' }]);
      expect(out).to.equal('[{"jsonrpc":"2.0","method":"a"}]');
    });
  });
});

describe('jsonrpc/codec: the id of an oversize request', () => {
  it('is read from the head of the text when it is a top-level member', () => {
    expect(sniffRequestId('{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"x":"aaaa')).to.equal(42);
    expect(sniffRequestId('{"method":"tools/call","id":"abc\\"d","params":{"x":"aaaa')).to.equal('abc"d');
    expect(sniffRequestId('{ "jsonrpc" : "2.0" , "id" : -7 , "method":"x"')).to.equal(-7);
  });

  it('is never taken from inside params, a batch, or a cut-off value', () => {
    expect(sniffRequestId('{"jsonrpc":"2.0","method":"x","params":{"id":5,"data":"aaaa')).to.equal(null);
    expect(sniffRequestId('[{"jsonrpc":"2.0","id":1,"method":"x"},{"id":2')).to.equal(null);
    expect(sniffRequestId('{"jsonrpc":"2.0","id":12')).to.equal(null);
    expect(sniffRequestId('not json at all')).to.equal(null);
  });

  it('lets an oversize text request be answered with its own id', () => {
    const text = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { pad: 'x'.repeat(5000) } });
    const r = decodeText(text, { maxFrameBytes: 1000, allowBatch: false });
    expect(r).to.deep.include({ kind: 'invalid', id: 9, respond: true });
  });
});
