/**
 * Issue 26's speed budget, in a figure that does not move with the machine's load: the promises
 * a call makes. A 2026-07-28 call went through one `.then` more than a legacy call (its result
 * type read a turn after the answer): ~220 B and a microtask per call. Counted with an
 * async hook, both eras against a peer that answers each request at once.
 */
import { expect } from 'chai';
import { createHook } from 'node:async_hooks';
import { Client } from '../../lib/entries/client.js';
import type { JsonObject } from '../../lib/jsonrpc/message.js';
import { createMemoryPair } from '../../streams/memory.js';

const V = '2026-07-28';

/** Promises made by 100 `callTool`s of a client connected in `era` (after 10 to warm up). */
async function promisesPerCall(era: 'legacy' | 'modern'): Promise<number> {
  const [ours, peer] = createMemoryPair();
  peer.inbound$.subscribe((raw) => {
    const m = raw as { id?: number | string; method?: string; params?: JsonObject };
    if (m.id === undefined || m.method === undefined) return;
    let result: JsonObject = {};
    if (m.method === 'server/discover') result = { resultType: 'complete', supportedVersions: [V], capabilities: { tools: {} }, serverInfo: { name: 'peer', version: '1' } };
    else if (m.method === 'initialize') result = { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'peer', version: '1' } };
    else if (m.method === 'tools/call') result = era === 'modern' ? { resultType: 'complete', content: [{ type: 'text', text: 'x' }] } : { content: [{ type: 'text', text: 'x' }] };
    void peer.send({ jsonrpc: '2.0', id: m.id, result } as never);
  });
  const client = new Client({ info: { name: 'spec', version: '1' }, era });
  await client.connect(ours);
  expect(client.era).to.equal(era);
  for (let i = 0; i < 10; i++) await client.callTool('echo', { text: 'x' });
  let promises = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'PROMISE') promises++;
    },
  }).enable();
  try {
    for (let i = 0; i < 100; i++) await client.callTool('echo', { text: 'x' });
  } finally {
    hook.disable();
  }
  await client.close();
  return promises / 100;
}

describe('client: the promises of a call (issue 26)', () => {
  it('a 2026-07-28 tools/call answered complete makes no more promises than a legacy one', async () => {
    const legacy = await promisesPerCall('legacy');
    const modern = await promisesPerCall('modern');
    expect(modern, `2026-07-28 ${modern} a call, legacy ${legacy}`).to.be.at.most(legacy);
  });
});
