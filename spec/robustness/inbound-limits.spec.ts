// Findings of the frame fuzzer, fixed: frames nested too deep, ids a peer cannot be answered
// under, notifications with params of the wrong type (over stdio-like text and over HTTP).
import { expect } from 'chai';
import { decodeText, decodeValue, sniffRequestId } from '../../lib/jsonrpc/codec.js';
import { DEFAULT_MAX_FRAME_DEPTH, nestsDeeperThan } from '../../lib/jsonrpc/depth.js';
import { ErrorCode } from '../../lib/jsonrpc/error-codes.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { Journal } from '../../lib/journal/journal.js';
import { replay } from '../../lib/journal/replay.js';
import { Server } from '../../lib/server.js';
import type { Diagnostic } from '../../lib/session/session.js';
import type { InvalidInbound } from '../../streams/inbound.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { RawPeer, SERVER_INFO, initializeRaw, settle } from '../helpers/raw-peer.js';

const single = { allowBatch: false };
const nestedArray = (depth: number, inner = '0') => '['.repeat(depth) + inner + ']'.repeat(depth);
/** A tools/call whose arguments nest so that the whole message is `depth` levels deep. */
const deepCall = (id: number | string, depth: number) =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"t","arguments":{"a":${nestedArray(depth - 3)}}}}`;

function invalid(r: unknown): InvalidInbound {
  expect((r as { kind: string }).kind).to.equal('invalid');
  return r as InvalidInbound;
}

describe('robustness: inbound limits', () => {
  describe('nesting depth', () => {
    it('measures depth without recursion, even 100,000 levels', () => {
      const deep = JSON.parse(nestedArray(100_000)) as unknown;
      expect(nestsDeeperThan(deep, DEFAULT_MAX_FRAME_DEPTH)).to.equal(true);
      expect(nestsDeeperThan(JSON.parse(nestedArray(128)), 128)).to.equal(false);
      expect(nestsDeeperThan(JSON.parse(nestedArray(129)), 128)).to.equal(true);
      expect(nestsDeeperThan({ a: [{ b: {} }] }, 4)).to.equal(false);
      expect(nestsDeeperThan({ a: [{ b: {} }] }, 3)).to.equal(true);
      expect(nestsDeeperThan('x', 0)).to.equal(false);
      // Limits above 1,000 take the loop instead of bounded recursion.
      expect(nestsDeeperThan(deep, 50_000)).to.equal(true);
      expect(nestsDeeperThan(JSON.parse(nestedArray(2_000)), 2_000)).to.equal(false);
      expect(nestsDeeperThan({ a: JSON.parse(nestedArray(2_000)) }, 2_000)).to.equal(true);
    });

    it('the codec refuses a request deeper than the limit with -32600 under its id; the limit is an option', () => {
      const inv = invalid(decodeText(deepCall(7, 129), single));
      expect(inv).to.deep.include({ id: 7, respond: true });
      expect(inv.error.code).to.equal(ErrorCode.InvalidRequest);
      expect(inv.error.message).to.match(/nests deeper than 128 levels \(option maxFrameDepth\)/);
      expect(decodeText(deepCall(7, 128), single).kind).to.equal('request');
      expect(invalid(decodeText(deepCall('s', 20), { ...single, maxFrameDepth: 10 })).id).to.equal('s');
      // A deep batch has no single id; a deep notification or response is never answered.
      expect(invalid(decodeText(nestedArray(200), { allowBatch: true }))).to.deep.include({ id: null, respond: true });
      expect(invalid(decodeText(`{"jsonrpc":"2.0","method":"notifications/x","params":{"a":${nestedArray(200)}}}`, single)).respond).to.equal(false);
      expect(invalid(decodeValue({ jsonrpc: '2.0', id: 1, result: { a: JSON.parse(nestedArray(200)) } }, single)).respond).to.equal(false);
    });

    it('a session answers a 10,000-deep request at once, never runs its handler, and records it without its value', async () => {
      const peer = new RawPeer();
      const s = new Server({ info: SERVER_INFO, capabilities: { tools: {} }, journal: true });
      let handled = 0;
      s.onRequest('tools/call', () => {
        handled++;
        return { content: [] };
      });
      const session = await s.connect(peer.transport);
      const diags: Diagnostic[] = [];
      session.diagnostics$.subscribe((d) => diags.push(d));
      // A user's frames$ observer that stringifies every frame (the demo's live log) is safe too.
      const shown: string[] = [];
      session.frames$.subscribe((f) => shown.push(JSON.stringify(f.frame)));
      await initializeRaw(peer);
      peer.send(deepCall(41, 10_000)); // text, as stdio delivers it
      peer.send('[' + deepCall(43, 5) + ']'); // a batch: not allowed on this revision anyway
      const r41 = await peer.response(41);
      expect(r41.error).to.deep.include({ code: -32600, data: { limit: 128 } });
      peer.send({ jsonrpc: '2.0', id: 'ok', method: 'tools/call', params: { name: 't' } });
      expect((await peer.response('ok')).result).to.deep.equal({ content: [] });
      expect(handled).to.equal(1);
      expect(diags.filter((d) => d.kind === 'invalid-frame')).to.have.length.greaterThanOrEqual(1);
      expect(shown.every((t) => t.length < 2_000)).to.equal(true);
      // The journal serializes (no deep value in it) and replays to the same answers.
      const text = session.journal!.toJSONL();
      const result = await replay(Journal.parse(text));
      expect(result.firstDifference).to.equal(undefined);
    });
  });

  it('maxFrameDepth is a server (and client) option', async () => {
    const peer = new RawPeer();
    const s = new Server({ info: SERVER_INFO, capabilities: { tools: {} }, maxFrameDepth: 8 });
    s.onRequest('tools/call', () => ({ content: [] }));
    await s.connect(peer.transport);
    await initializeRaw(peer);
    peer.send(deepCall(1, 8));
    peer.send(deepCall(2, 9));
    expect((await peer.response(1)).result).to.deep.equal({ content: [] });
    expect((await peer.response(2)).error).to.deep.include({ code: -32600, data: { limit: 8 } });
  });

  describe('request ids', () => {
    it('[BASE-003] an id with a fraction gets -32600 with id null', () => {
      for (const id of ['1.5', '-0.25', '2.000001']) {
        const inv = invalid(decodeText(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`, single));
        expect(inv).to.deep.include({ id: null, respond: true });
        expect(inv.error.code).to.equal(ErrorCode.InvalidRequest);
        expect(inv.error.message).to.match(/a string or an integer, got a number with a fraction/);
      }
    });

    it('[BASE-003] an integer id beyond 2^53 is refused with id null, never answered under another id', () => {
      for (const id of ['9007199254740993', '-9007199254740993', '12345678901234567890', '1e300']) {
        const inv = invalid(decodeText(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`, single));
        expect(inv).to.deep.include({ id: null, respond: true });
        expect(inv.error.message).to.match(/beyond 2\^53/);
      }
      expect(decodeText('{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}', single).kind).to.equal('request');
      expect(decodeText('{"jsonrpc":"2.0","id":-9007199254740991,"method":"ping"}', single).kind).to.equal('request');
      // An oversize frame's id is read from its text under the same rule.
      expect(sniffRequestId('{"jsonrpc":"2.0","id":9007199254740993,"method":"x","params":{')).to.equal(null);
      expect(sniffRequestId('{"jsonrpc":"2.0","id":1.5,"method":"x","params":{')).to.equal(null);
      expect(sniffRequestId('{"jsonrpc":"2.0","id":12,"method":"x","params":{')).to.equal(12);
    });

    it('a session answers such ids with -32600 and id null, and keeps serving', async () => {
      const peer = new RawPeer();
      const s = new Server({ info: SERVER_INFO });
      await s.connect(peer.transport);
      await initializeRaw(peer);
      peer.send('{"jsonrpc":"2.0","id":1.5,"method":"ping"}');
      peer.send('{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}');
      peer.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
      await peer.response(3);
      const errors = peer.received.filter((f) => f.error);
      expect(errors.map((f) => [f.id, f.error.code])).to.deep.equal([[null, -32600], [null, -32600]]);
      // Nothing was answered under the rounded id.
      expect(peer.received.some((f) => f.id === 9007199254740992 || f.id === 1.5)).to.equal(false);
    });
  });

  describe('notifications with params that are not an object', () => {
    it('[BASE-011] are dropped and reported on diagnostics$, never answered (stdio-like text)', async () => {
      const peer = new RawPeer();
      const s = new Server({ info: SERVER_INFO });
      const session = await s.connect(peer.transport);
      const diags: Diagnostic[] = [];
      session.diagnostics$.subscribe((d) => diags.push(d));
      await initializeRaw(peer);
      peer.send('{"jsonrpc":"2.0","method":"notifications/progress","params":[1]}');
      peer.send('{"jsonrpc":"2.0","method":"notifications/roots/list_changed","params":"x"}');
      peer.send({ jsonrpc: '2.0', id: 'p', method: 'ping' });
      await peer.response('p');
      await settle();
      expect(peer.received.filter((f) => f.error)).to.deep.equal([]);
      expect(diags.filter((d) => d.kind === 'invalid-frame').map((d) => d.message)).to.have.length(2);
    });

    it('[HTTP-010] [BASE-011] over Streamable HTTP: 400 (the transport requires an error status), a body without id, the session reports it', async () => {
      const s = new Server({ info: SERVER_INFO });
      const diags: Diagnostic[] = [];
      s.sessions$.subscribe((session) => session.diagnostics$.subscribe((d) => diags.push(d)));
      const listening: Listening = await listen(createStreamableHttpHandler(s), { port: 0, logger: false });
      try {
        const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
        const init = await fetch(listening.url, {
          method: 'POST',
          headers,
          body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }),
        });
        const sid = init.headers.get('mcp-session-id')!;
        await init.text();
        const h = { ...headers, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' };
        await (await fetch(listening.url, { method: 'POST', headers: h, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' })).text();
        const res = await fetch(listening.url, { method: 'POST', headers: h, body: '{"jsonrpc":"2.0","method":"notifications/progress","params":[1]}' });
        expect(res.status).to.equal(400);
        const body = (await res.json()) as Record<string, unknown>;
        expect(body).to.not.have.property('id');
        expect(body).to.have.nested.property('error.code', ErrorCode.InvalidParams);
        expect(diags.map((d) => d.kind)).to.include('invalid-frame');
        // A deep request over HTTP is answered under its id, and the session keeps serving.
        const deep = await fetch(listening.url, { method: 'POST', headers: { ...h, accept: 'application/json, text/event-stream' }, body: deepCall(5, 5_000) });
        const deepText = await deep.text();
        expect(deepText).to.contain('"id":5').and.contain('-32600');
        const ping = await fetch(listening.url, { method: 'POST', headers: h, body: '{"jsonrpc":"2.0","id":6,"method":"ping"}' });
        expect(await ping.text()).to.contain('"id":6').and.contain('"result":{}');
      } finally {
        await listening.close();
        await s.close();
      }
    });

    it('[BASE-011] over the 2024-11-05 HTTP+SSE endpoint: 400 with a body without id, nothing on the event stream, the session reports it', async () => {
      const s = new Server({ info: SERVER_INFO });
      const diags: Diagnostic[] = [];
      s.sessions$.subscribe((session) => session.diagnostics$.subscribe((d) => diags.push(d)));
      const listening: Listening = await listen(createStreamableHttpHandler(s, { legacySse: true }), { port: 0, logger: false });
      const abort = new AbortController();
      try {
        const origin = new URL(listening.url).origin;
        const sse = await fetch(`${origin}/sse`, { headers: { accept: 'text/event-stream' }, signal: abort.signal });
        const reader = sse.body!.pipeThrough(new TextDecoderStream()).getReader();
        let text = '';
        const until = async (needle: string) => {
          while (!text.includes(needle)) {
            const { value, done } = await reader.read();
            if (done) throw new Error(`the stream ended before ${needle}: ${text}`);
            text += value;
          }
        };
        await until('event: endpoint');
        await until('\n\n');
        const endpoint = /data: (\S+)/.exec(text)![1];
        const messages = new URL(endpoint, origin).toString();
        const post = (body: string) => fetch(messages, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        await (await post(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }))).text();
        await until('"id":0');
        await (await post('{"jsonrpc":"2.0","method":"notifications/initialized"}')).text();
        const res = await post('{"jsonrpc":"2.0","method":"notifications/progress","params":[1]}');
        expect(res.status).to.equal(400);
        const body = (await res.json()) as Record<string, unknown>;
        expect(body).to.not.have.property('id');
        expect(body).to.have.nested.property('error.code', ErrorCode.InvalidParams);
        // The next request's answer is the next message on the stream: nothing was sent for the notification.
        const mark = text.length;
        await (await post('{"jsonrpc":"2.0","id":7,"method":"ping"}')).text();
        await until('"id":7');
        expect(text.slice(mark)).to.not.contain('error');
        expect(diags.map((d) => d.kind)).to.include('invalid-frame');
      } finally {
        abort.abort();
        await listening.close();
        await s.close();
      }
    });
  });
});
