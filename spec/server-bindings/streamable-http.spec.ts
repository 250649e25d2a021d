// The Streamable HTTP server over real sockets (127.0.0.1, ephemeral port), checked message by
// message with a raw HTTP client against the transport texts (draft, 2025-06-18, 2025-03-26).
import { expect } from 'chai';
import { startFixture, type Fixture } from '../fixtures/http-server/server.js';
import {
  ACCEPT_BOTH,
  callTool,
  getStream,
  initializeRequest,
  openSession,
  post,
  postHeaders,
  postStream,
  raw,
  until,
} from '../fixtures/http-server/raw.js';

describe('Streamable HTTP server', () => {
  let fx: Fixture;
  afterEach(async () => {
    await fx?.close();
  });

  const h = (sid: string, version = '2025-11-25') => ({ 'mcp-session-id': sid, 'mcp-protocol-version': version });

  describe('the endpoint', () => {
    beforeEach(async () => {
      fx = await startFixture();
    });

    it('[HTTP-001] serves POST and GET on one path, 404 elsewhere, 405 for other methods', async () => {
      const sid = await openSession(fx.url);
      const res = await post(fx.url, callTool(1, 'echo', { text: 'hi' }), h(sid));
      expect(res.status).to.equal(200);
      const get = await getStream(fx.url, h(sid));
      expect(get.status).to.equal(200);
      expect(get.headers['content-type']).to.equal('text/event-stream');
      get.close();
      expect((await post(`${fx.origin}/other`, callTool(1, 'echo', { text: 'x' }), h(sid))).status).to.equal(404);
      const put = await raw(fx.url, { method: 'PUT', headers: postHeaders(h(sid)), body: '{}' });
      expect(put.status).to.equal(405);
      expect(put.headers.allow).to.equal('POST, GET, DELETE');
    });

    it('[HTTP-007] refuses a POST whose Accept does not list both JSON and SSE with 406', async () => {
      const body = JSON.stringify(initializeRequest());
      for (const accept of [undefined, 'application/json', 'text/event-stream', 'text/html']) {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (accept !== undefined) headers.accept = accept;
        const res = await raw(fx.url, { method: 'POST', headers, body });
        expect(res.status, String(accept)).to.equal(406);
        expect(res.json.error.code).to.equal(-32600);
        expect(res.headers['mcp-session-id']).to.equal(undefined);
      }
      expect(fx.handler.sessionCount).to.equal(0);
    });

    it('refuses a POST that is not application/json with 415', async () => {
      const res = await raw(fx.url, { method: 'POST', headers: { accept: ACCEPT_BOTH, 'content-type': 'text/plain' }, body: JSON.stringify(initializeRequest()) });
      expect(res.status).to.equal(415);
      expect(res.json.error.message).to.match(/application\/json/);
      const charset = await raw(fx.url, {
        method: 'POST',
        headers: { accept: ACCEPT_BOTH, 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify(initializeRequest()),
      });
      expect(charset.status).to.equal(200);
    });

    it('[HTTP-010] answers invalid JSON with 400 and a -32700 error without id', async () => {
      const res = await raw(fx.url, { method: 'POST', headers: postHeaders(), body: '{"jsonrpc": "2.0", "id": 1,' });
      expect(res.status).to.equal(400);
      expect(res.json).to.deep.include({ jsonrpc: '2.0', id: null });
      expect(res.json.error.code).to.equal(-32700);
    });

    it('[HTTP-008] [HTTP-010] refuses a batch on a 2025-06-18+ session and a non-message with 400 -32600', async () => {
      const sid = await openSession(fx.url);
      const batch = await post(fx.url, [callTool(1, 'echo', { text: 'a' }), callTool(2, 'echo', { text: 'b' })], h(sid));
      expect(batch.status).to.equal(400);
      expect(batch.json.error.code).to.equal(-32600);
      expect(batch.json.error.message).to.match(/batch/);
      const junk = await post(fx.url, { hello: 'world' }, h(sid));
      expect(junk.status).to.equal(400);
      expect(junk.json.error.code).to.equal(-32600);
      const badNote = await post(fx.url, { jsonrpc: '2.0', method: 'notifications/x', params: [1] }, h(sid));
      expect(badNote.status).to.equal(400);
    });

    it('refuses a body above maxBodyBytes with 413 (declared or streamed)', async () => {
      await fx.close();
      fx = await startFixture({ maxBodyBytes: 1000 });
      const big = JSON.stringify({ ...initializeRequest(), pad: 'x'.repeat(5000) });
      const declared = await raw(fx.url, { method: 'POST', headers: postHeaders(), body: big });
      expect(declared.status).to.equal(413);
      const chunked = await raw(fx.url, { method: 'POST', headers: postHeaders({ 'transfer-encoding': 'chunked' }), body: big });
      expect(chunked.status).to.equal(413);
      expect(chunked.json.error.message).to.match(/maxBodyBytes/);
      expect(fx.handler.sessionCount).to.equal(0);
    });

    it('[HTTP-009] answers notifications and responses with 202 and no body', async () => {
      const sid = await openSession(fx.url);
      const note = await post(fx.url, { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, h(sid));
      expect(note.status).to.equal(202);
      expect(note.body).to.equal('');
      const response = await post(fx.url, { jsonrpc: '2.0', id: 999, result: {} }, h(sid));
      expect(response.status).to.equal(202);
      expect(response.body).to.equal('');
    });

    it('[HTTP-011] [HTTP-012] answers a request with one JSON object (auto mode, nothing related before the result)', async () => {
      const sid = await openSession(fx.url);
      const res = await post(fx.url, callTool(7, 'echo', { text: 'hello' }), h(sid));
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('application/json');
      expect(res.json).to.deep.equal({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'hello' }] } });
    });

    it('answers a failing request with its JSON-RPC error (HTTP 200)', async () => {
      const sid = await openSession(fx.url);
      const res = await post(fx.url, callTool(8, 'fail'), h(sid));
      expect(res.status).to.equal(200);
      expect(res.json.error).to.deep.equal({ code: -32602, message: 'fail on purpose' });
    });
  });

  describe('SSE streams of a POST', () => {
    beforeEach(async () => {
      fx = await startFixture();
    });

    it('[HTTP-013] [HTTP-014] [HTTP-016] [HTTP-015] puts related progress on the POST stream, then the response, then closes it', async () => {
      const sid = await openSession(fx.url);
      const s = await postStream(fx.url, callTool(3, 'slow', { steps: 3 }, 'tok'), h(sid));
      expect(s.status).to.equal(200);
      expect(s.headers['content-type']).to.equal('text/event-stream');
      await s.done;
      const messages = s.messages;
      expect(messages.map((m) => m.method ?? 'response')).to.deep.equal([
        'notifications/progress',
        'notifications/progress',
        'notifications/progress',
        'response',
      ]);
      expect(messages[0].params).to.deep.equal({ progressToken: 'tok', progress: 1, total: 3, message: 'step 1' });
      expect(messages[3]).to.deep.include({ id: 3 });
      expect(s.ended).to.equal(true);
    });

    it('[HTTP-021] [HTTP-022] [HTTP-023] sends unrelated messages on the GET stream only, and never a response there', async () => {
      const sid = await openSession(fx.url);
      const get = await getStream(fx.url, h(sid));
      const s = await postStream(fx.url, callTool(4, 'announce'), h(sid));
      await s.done;
      await get.waitForMessages(1);
      expect(get.messages).to.deep.equal([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
      // The POST got its response as JSON (auto mode: nothing related came first), no notification.
      expect(s.headers['content-type']).to.equal('application/json');
      expect(s.events).to.deep.equal([]);
      const logged = await postStream(fx.url, callTool(5, 'log', { text: 'x' }), h(sid));
      await logged.done;
      expect(logged.messages.map((m) => m.method ?? m.id)).to.deep.equal(['notifications/message', 5]);
      expect(get.messages).to.have.length(1);
      get.close();
    });

    it('[HTTP-019] [HTTP-020] GET needs Accept text/event-stream (406); without standaloneSse it is 405', async () => {
      const sid = await openSession(fx.url);
      const wrong = await raw(fx.url, { method: 'GET', headers: { accept: 'application/json', ...h(sid) } });
      expect(wrong.status).to.equal(406);
      await fx.close();
      fx = await startFixture({ standaloneSse: false });
      const sid2 = await openSession(fx.url);
      const res = await raw(fx.url, { method: 'GET', headers: { accept: 'text/event-stream', ...h(sid2) } });
      expect(res.status).to.equal(405);
      expect(res.headers.allow).to.equal('POST, DELETE');
    });

    it("in 'sse' mode opens the stream at once with a priming event and retry, ids unique per session", async () => {
      await fx.close();
      fx = await startFixture({ responseMode: 'sse', retryMs: 2500 });
      const sid = await openSession(fx.url);
      const a = await postStream(fx.url, callTool(1, 'echo', { text: 'a' }), h(sid));
      const b = await postStream(fx.url, callTool(2, 'slow', { steps: 2 }, 'p'), h(sid));
      await Promise.all([a.done, b.done]);
      for (const s of [a, b]) {
        expect(s.events[0].data).to.equal('');
        expect(s.events[0].id).to.be.a('string');
        expect(s.events[0].retry).to.equal(2500);
      }
      const ids = [...a.events, ...b.events].map((e) => e.id);
      expect(ids.every((id) => typeof id === 'string')).to.equal(true);
      expect(new Set(ids).size).to.equal(ids.length);
      expect(a.messages).to.deep.equal([{ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'a' }] } }]);
    });

    it('no priming event for a 2025-06-18 session (its clients may not accept empty data), but event ids', async () => {
      await fx.close();
      fx = await startFixture({ responseMode: 'sse' });
      const sid = await openSession(fx.url, '2025-06-18');
      const s = await postStream(fx.url, callTool(1, 'echo', { text: 'a' }), h(sid, '2025-06-18'));
      await s.done;
      expect(s.events.filter((e) => e.data === '' && e.id !== undefined)).to.deep.equal([]);
      expect(s.messages).to.have.length(1);
      expect(s.events.find((e) => e.data !== '')!.id).to.be.a('string');
    });

    it("in 'json' mode related messages go to the GET stream and the POST answers JSON", async () => {
      await fx.close();
      fx = await startFixture({ responseMode: 'json' });
      const sid = await openSession(fx.url);
      const get = await getStream(fx.url, h(sid));
      const res = await post(fx.url, callTool(9, 'log', { text: 'side' }), h(sid));
      expect(res.headers['content-type']).to.equal('application/json');
      expect(res.json.id).to.equal(9);
      await get.waitForMessages(1);
      expect(get.messages[0].method).to.equal('notifications/message');
      get.close();
    });

    it('[HTTP-017] [HTTP-018] a dropped POST stream does not cancel the request; a cancellation ends its POST', async () => {
      const sid = await openSession(fx.url);
      const s = await postStream(fx.url, callTool(11, 'slow', { steps: 1, gate: true }, 't'), h(sid));
      await s.waitForMessages(1);
      s.close();
      await s.done;
      // Still running: releasing it completes it (its answer is kept for a resumption).
      const rel = await post(fx.url, callTool(12, 'release'), h(sid));
      expect(rel.json.result).to.deep.equal({ content: [{ type: 'text', text: 'ok' }] });

      // Auto mode: nothing is sent before the result, so the headers wait too.
      const pending = postStream(fx.url, callTool(13, 'gated'), h(sid));
      await until(() => fx.events.includes('gated started 13'), 'gated to start');
      const cancel = await post(fx.url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 13, reason: 'user' } }, h(sid));
      expect(cancel.status).to.equal(202);
      const g = await pending;
      await g.done;
      expect(g.headers['content-type']).to.equal('text/event-stream');
      expect(g.messages).to.deep.equal([]);
      await until(() => fx.events.includes('aborted 13'), 'the handler to see the abort');
    });
  });

  describe('sessions', () => {
    beforeEach(async () => {
      fx = await startFixture();
    });

    it('[HTTP-027] [HTTP-028] [SEC-005] [SEC-006] gives each initialize a fresh random session id of visible ASCII', async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 20; i++) {
        const res = await post(fx.url, initializeRequest());
        const sid = res.headers['mcp-session-id'] as string;
        expect(sid).to.match(/^[\x21-\x7e]+$/);
        expect(sid.length).to.be.at.least(22);
        ids.add(sid);
      }
      expect(ids.size).to.equal(20);
    });

    it('[HTTP-029] [HTTP-030] requires Mcp-Session-Id after initialize (400)', async () => {
      await openSession(fx.url);
      const res = await post(fx.url, callTool(1, 'echo', { text: 'x' }), { 'mcp-protocol-version': '2025-11-25' });
      expect(res.status).to.equal(400);
      expect(res.json.error.message).to.match(/Mcp-Session-Id/);
      const get = await raw(fx.url, { method: 'GET', headers: { accept: 'text/event-stream' } });
      expect(get.status).to.equal(400);
    });

    it('[HTTP-031] answers an unknown session id with 404 on POST, GET and DELETE', async () => {
      for (const method of ['POST', 'GET', 'DELETE']) {
        const res = await raw(fx.url, {
          method,
          headers: { ...postHeaders(), accept: method === 'GET' ? 'text/event-stream' : ACCEPT_BOTH, 'mcp-session-id': 'nope' },
          body: method === 'POST' ? JSON.stringify(callTool(1, 'echo', { text: 'x' })) : undefined,
        });
        expect(res.status, method).to.equal(404);
      }
    });

    it('[HTTP-033] terminates a session on DELETE (then 404), closing its ServerSession', async () => {
      const sid = await openSession(fx.url);
      expect(fx.server.sessions.size).to.equal(1);
      const del = await raw(fx.url, { method: 'DELETE', headers: h(sid) });
      expect(del.status).to.equal(204);
      expect((await post(fx.url, callTool(1, 'echo', { text: 'x' }), h(sid))).status).to.equal(404);
      await until(() => fx.server.sessions.size === 0, 'the ServerSession to close');
    });

    it('DELETE is 405 when allowDelete is false', async () => {
      await fx.close();
      fx = await startFixture({ allowDelete: false });
      const sid = await openSession(fx.url);
      const del = await raw(fx.url, { method: 'DELETE', headers: h(sid) });
      expect(del.status).to.equal(405);
      expect((await post(fx.url, callTool(1, 'echo', { text: 'x' }), h(sid))).status).to.equal(200);
    });

    it('a failed initialize leaves no session and sends no session id', async () => {
      const res = await post(fx.url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } });
      expect(res.status).to.equal(200);
      expect(res.json.error.code).to.equal(-32602);
      expect(res.headers['mcp-session-id']).to.equal(undefined);
      expect(fx.handler.sessionCount).to.equal(0);
    });

    it('a second initialize on a session is refused by the session, which stays', async () => {
      const sid = await openSession(fx.url);
      const again = await post(fx.url, initializeRequest('2025-11-25', 9), h(sid));
      expect(again.status).to.equal(200);
      expect(again.json.error.code).to.equal(-32600);
      expect((await post(fx.url, callTool(1, 'echo', { text: 'still here' }), h(sid))).status).to.equal(200);
    });

    it('a request id still in progress cannot be reused in the session (400)', async () => {
      const sid = await openSession(fx.url);
      const first = post(fx.url, callTool(5, 'gated'), h(sid));
      await until(() => fx.events.includes('gated started 5'), 'gated to start');
      const dup = await post(fx.url, callTool(5, 'echo', { text: 'x' }), h(sid));
      expect(dup.status).to.equal(400);
      expect(dup.json.id).to.equal(5);
      fx.release();
      expect((await first).json.result).to.deep.equal({ content: [{ type: 'text', text: 'released' }] });
    });

    it('[HTTP-034] [HTTP-035] [HTTP-036] [HTTP-037] checks MCP-Protocol-Version: unsupported → 400, absent or supported → served', async () => {
      const sid = await openSession(fx.url);
      const bad = await post(fx.url, callTool(1, 'echo', { text: 'x' }), { 'mcp-session-id': sid, 'mcp-protocol-version': '1999-01-01' });
      expect(bad.status).to.equal(400);
      expect(bad.json.error.message).to.match(/MCP-Protocol-Version/);
      const absent = await post(fx.url, callTool(2, 'echo', { text: 'x' }), { 'mcp-session-id': sid });
      expect(absent.status).to.equal(200);
      const other = await post(fx.url, callTool(3, 'echo', { text: 'x' }), h(sid, '2025-06-18'));
      expect(other.status).to.equal(200);
      const get = await raw(fx.url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': 'banana' } });
      expect(get.status).to.equal(400);
      const del = await raw(fx.url, { method: 'DELETE', headers: { 'mcp-session-id': sid, 'mcp-protocol-version': 'banana' } });
      expect(del.status).to.equal(400);
    });

    it('a 2025-03-26 session ignores the header (it did not exist then)', async () => {
      const sid = await openSession(fx.url, '2025-03-26');
      const res = await post(fx.url, callTool(1, 'echo', { text: 'x' }), { 'mcp-session-id': sid, 'mcp-protocol-version': 'whatever' });
      expect(res.status).to.equal(200);
    });
  });

  describe('batches (2025-03-26)', () => {
    beforeEach(async () => {
      fx = await startFixture();
    });

    it('[HTTP-082] [HTTP-083] [HTTP-087] answers a batch of requests with one JSON array', async () => {
      const sid = await openSession(fx.url, '2025-03-26');
      const res = await post(fx.url, [callTool(1, 'echo', { text: 'a' }), callTool(2, 'echo', { text: 'b' }), { jsonrpc: '2.0', method: 'notifications/x' }], {
        'mcp-session-id': sid,
      });
      expect(res.status).to.equal(200);
      expect(res.json.map((r: { id: number }) => r.id).sort()).to.deep.equal([1, 2]);
    });

    it('[HTTP-089] [HTTP-092] in sse mode streams one event per response, then closes', async () => {
      await fx.close();
      fx = await startFixture({ responseMode: 'sse' });
      const sid = await openSession(fx.url, '2025-03-26');
      const s = await postStream(fx.url, [callTool(1, 'echo', { text: 'a' }), callTool(2, 'slow', { steps: 1 }, 'k')], { 'mcp-session-id': sid });
      await s.done;
      const ids = s.messages.filter((m) => m.method === undefined).map((m) => m.id);
      expect(ids.sort()).to.deep.equal([1, 2]);
      expect(s.messages.some((m) => m.method === 'notifications/progress')).to.equal(true);
    });

    it('[HTTP-084] [HTTP-009] accepts a batch of notifications or of responses with 202', async () => {
      const sid = await openSession(fx.url, '2025-03-26');
      const notes = await post(fx.url, [{ jsonrpc: '2.0', method: 'notifications/a' }, { jsonrpc: '2.0', method: 'notifications/b' }], { 'mcp-session-id': sid });
      expect(notes.status).to.equal(202);
      const responses = await post(fx.url, [{ jsonrpc: '2.0', id: 'x', result: {} }, { jsonrpc: '2.0', id: 'y', result: {} }], { 'mcp-session-id': sid });
      expect(responses.status).to.equal(202);
      expect(responses.body).to.equal('');
    });

    it('answers broken batch items one by one; a batch of only unreadable items gets 400', async () => {
      const sid = await openSession(fx.url, '2025-03-26');
      const res = await post(fx.url, [{ jsonrpc: '1.0', method: 'x', id: 3 }, 5], { 'mcp-session-id': sid });
      expect(res.status).to.equal(200);
      expect(res.json.map((r: { id: unknown }) => r.id)).to.deep.equal([3, null]);
      const unreadable = await post(fx.url, [5, 'x', { jsonrpc: '2.0', method: 'notifications/ok' }], { 'mcp-session-id': sid });
      expect(unreadable.status).to.equal(400);
      expect(unreadable.json.map((r: { id: unknown; error: { code: number } }) => [r.id, r.error.code])).to.deep.equal([
        [null, -32600],
        [null, -32600],
      ]);
    });
  });
});
