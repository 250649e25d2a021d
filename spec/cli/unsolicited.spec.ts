// The mock server sends what the recorded server sent outside any request (a resource update and
// a list change after a tool call, on stdio and on the standalone GET stream of Streamable HTTP)
// at the point of the session where it was recorded: not before the client makes that call, and
// in the recorded order around its response.
import { expect } from 'chai';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as SdkStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../../lib/entries/client.js';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import type { Transport } from '../../streams/transport.js';
import { background, CLI } from './helpers.js';
import { EVERYTHING_STDIO } from './modern-sessions.js';
import { tsArgs } from '../helpers/ts-child.js';
import { watchWire } from '../helpers/wire-watch.js';

const cli = (...args: string[]) => ({ command: process.execPath, args: [...tsArgs(CLI), ...args] });
const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Our legacy client: subscribes to notes://index, adds a note (the server then announces the change), converts units. */
async function recordLegacy(transport: Transport): Promise<void> {
  const client = new Client({ info: { name: 'ours-legacy', version: '1.0.0' }, era: 'legacy' });
  await client.connect(transport);
  const wire = watchWire(transport);
  const sub = client.subscribe('notes://index').subscribe();
  try {
    // Over HTTP the subscribe and the call are two POSTs: a call that overtook the subscribe
    // would change nothing the server sends.
    await wire.answerTo('resources/subscribe');
    await client.callTool('add_note', { body: 'A kingfisher on the bank.' });
    await client.callTool('convert_units', { value: 1, from: 'mile', to: 'kilometre' });
    // Both come through the recorder before the session ends (the list change is debounced).
    await wire.notification('notifications/resources/updated');
    await wire.notification('notifications/resources/list_changed');
  } finally {
    sub.unsubscribe();
    await client.close();
  }
}

/** What the server sent (answers, and notifications outside any request) in the recorded order. */
function recordedOrder(file: string): string[] {
  const entries = lines(file).slice(1);
  const names = new Map<unknown, string>();
  const order: string[] = [];
  for (const e of entries) {
    if (e.kind === 'in' && e.frame?.method === 'tools/call') {
      names.set(e.frame.id, e.frame.params.name);
    } else if (e.kind === 'out' && names.has(e.frame?.id)) order.push(`result ${names.get(e.frame.id)}`);
    else if (e.kind === 'out' && (e.frame.method === 'notifications/resources/updated' || e.frame.method === 'notifications/resources/list_changed')) order.push(e.frame.method);
  }
  return order;
}

describe('replay --as server: notifications sent outside any request come at their recorded point', function () {
  this.timeout(120000);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'mcp-unsolicited-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('stdio: the official SDK client gets the resource update and the list change only once it adds the note, in the recorded order', async () => {
    const rec = join(dir, 'stdio.jsonl');
    await recordLegacy(createStdioClientTransport({ ...cli('record', '--out', rec, '--', ...EVERYTHING_STDIO), stderr: 'ignore' }));
    // The list change is debounced: recorded after add_note's answer or once convert_units was called,
    // it comes between the two answers either way.
    const expected = recordedOrder(rec);
    expect(expected).to.include.members(['notifications/resources/updated', 'notifications/resources/list_changed', 'result add_note', 'result convert_units']);

    const client = new SdkClient({ name: 'sdk-client', version: '1.0.0' });
    const got: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, async () => void got.push('updated'));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => void got.push('list_changed'));
    const transport = new SdkStdio({ ...cli('replay', rec, '--as', 'server'), stderr: 'ignore' });
    await client.connect(transport);
    // The order on the wire, as the client reads it.
    const log: string[] = [];
    const deliver = transport.onmessage!;
    transport.onmessage = (m: any) => {
      if (m.method === 'notifications/resources/updated' || m.method === 'notifications/resources/list_changed') log.push(m.method);
      else if (JSON.stringify(m.result ?? '').includes('Added n')) log.push('result add_note');
      else if (JSON.stringify(m.result ?? '').includes('kilometre')) log.push('result convert_units');
      deliver(m);
    };
    const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
    try {
      await client.subscribeResource({ uri: 'notes://index' });
      await sleep(500);
      expect(log, 'nothing before the call that caused it').to.deep.equal([]);
      await call('add_note', { body: 'A kingfisher on the bank.' });
      await call('convert_units', { value: 1, from: 'mile', to: 'kilometre' });
      for (let i = 0; i < 500 && log.length < expected.length; i++) await sleep(20);
      expect(log).to.deep.equal(expected);
      expect(got.sort()).to.deep.equal(['list_changed', 'updated']);
    } finally {
      await client.close();
    }
  });

  it('Streamable HTTP: they come on the standalone GET stream of the live session', async () => {
    const rec = join(dir, 'http.jsonl');
    const server = await background([...tsArgs('examples/everything.ts')], /(http:\/\/127\.0\.0\.1:\d+\/mcp)/, { PORT: '0' });
    try {
      const proxy = await background([...tsArgs(CLI), 'record', '--out', rec, '--target', server.match[1]!], /Point your client at (\S+)/);
      try {
        await recordLegacy(createStreamableHttpClientTransport(proxy.match[1]!));
      } finally {
        await proxy.stop();
      }
    } finally {
      await server.stop();
    }
    const update = lines(rec).find((e) => e.frame?.method === 'notifications/resources/updated');
    expect(update.http.method).to.equal('GET');

    const mock = await background([...tsArgs(CLI), 'replay', rec, '--as', 'server', '--port', '0'], /mock server at (\S+)/);
    const client = new Client({ info: { name: 'ours-legacy', version: '1.0.0' }, era: 'legacy' });
    const seen: string[] = [];
    // The mock can only send on a standalone GET stream that is open: wait for the client's (a
    // loaded machine can take longer than any fixed pause to open it).
    let getOpened!: () => void;
    const opened = new Promise<void>((resolve) => (getOpened = resolve));
    const fetchWatchingGet: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (init?.method === 'GET' && res.ok) getOpened();
      return res;
    };
    try {
      await client.connect(createStreamableHttpClientTransport(mock.match[1]!, { fetch: fetchWatchingGet }));
      const sub = client.subscribe('notes://index').subscribe(() => seen.push('updated'));
      await Promise.race([opened, sleep(15000)]);
      await sleep(500);
      expect(seen).to.deep.equal([]);
      await client.callTool('add_note', { body: 'A kingfisher on the bank.' });
      // As recorded: on a loaded machine the recorder can read the GET stream's update only after
      // the next call arrived on its POST (two connections), so the update is placed there.
      await client.callTool('convert_units', { value: 1, from: 'mile', to: 'kilometre' });
      for (let i = 0; i < 200 && !seen.includes('updated'); i++) await sleep(20);
      expect(seen).to.deep.equal(['updated']);
      sub.unsubscribe();
    } finally {
      await client.close();
      await mock.stop();
    }
  });
});
