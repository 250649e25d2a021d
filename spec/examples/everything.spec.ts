// Smoke test of examples/everything.ts: started over stdio (node + tsx) and driven by our Client.
import { expect } from 'chai';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { Client } from '../../lib/entries/client.js';
import { createStdioClientTransport, type StdioClientTransport } from '../../streams/stdio-client.js';
import { tsArgs } from '../helpers/ts-child.js';

const EVERYTHING = fileURLToPath(new URL('../../examples/everything.ts', import.meta.url));

describe('examples/everything.ts over stdio', function () {
  this.timeout(30_000);
  let client: Client;
  let transport: StdioClientTransport;
  const stderr: string[] = [];

  before(async () => {
    transport = createStdioClientTransport({ command: process.execPath, args: [...tsArgs(EVERYTHING), '--stdio'], stderr: 'pipe' });
    transport.stderr$.subscribe((line) => stderr.push(line));
    client = new Client({ info: { name: 'everything-smoke', version: '0.0.1' } });
    client.onSampling((params) => ({
      role: 'assistant',
      content: { type: 'text', text: `Summary of ${params.messages.length} message(s).` },
      model: 'smoke-model',
      stopReason: 'endTurn',
    }));
    client.onElicitation({ form: () => ({ action: 'accept', content: { title: 'Otter tracks', priority: 'high', tags: ['marsh'] } }) });
    await client.connect(transport);
  });

  after(async () => {
    await client?.close();
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed') console.error(`server stderr:\n${stderr.join('\n')}`);
  });

  it('lists its tools, each with a description', async () => {
    const tools = await client.listTools();
    expect(tools.map((t) => t.name)).to.include.members(['convert_units', 'search_notes', 'add_note', 'summarize_note', 'rebuild_index']);
    for (const t of tools) expect(t.description?.length ?? 0, t.name).to.be.greaterThan(0);
    expect(tools.find((t) => t.name === 'convert_units')?.outputSchema).to.be.an('object');
  });

  it('calls a tool with structured output', async () => {
    const result = await client.callTool('convert_units', { value: 100, from: 'celsius', to: 'fahrenheit' });
    expect(result.isError).to.not.equal(true);
    expect(result.structuredContent).to.deep.equal({ value: 212, unit: 'fahrenheit', kind: 'temperature' });
  });

  it('asks the user (elicitation) and the model (sampling) from tools', async () => {
    const added = await client.callTool('add_note', { body: 'Fresh otter tracks on the mud bank by the sluice.' });
    expect(added.isError).to.not.equal(true);
    expect(JSON.stringify(added.content)).to.include('Otter tracks');
    const summary = await client.callTool('summarize_note', { id: 'n1' });
    expect(JSON.stringify(summary.content)).to.include('smoke-model');
  });

  it('its live log shows the 2026-07-28 requests, served without a session: the rounds of a call that asked for input, then its answer', async () => {
    await client.callTool('add_note', { body: 'Heron at dawn.' });
    const ofAdd = () => stderr.filter((l) => l.includes('[2026-07-28] tools/call add_note from anonymous'));
    const deadline = Date.now() + 5_000;
    while (!ofAdd().some((l) => l.includes('answered')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(ofAdd().some((l) => /inputRequired in \d+ ms, \d+ input request/.test(l)), ofAdd().join('\n')).to.equal(true);
    expect(ofAdd().some((l) => /answered in \d+ ms, round 2/.test(l)), ofAdd().join('\n')).to.equal(true);
  });

  it('reports progress', async () => {
    const seen: number[] = [];
    const result = await client.callTool('rebuild_index', { delayMs: 1 }, { onprogress: (p) => seen.push(p.progress) });
    expect(result.isError).to.not.equal(true);
    expect(seen.length).to.be.greaterThan(1);
    expect(seen.at(-1)).to.equal(seen.length - 1);
  });

  it('reads a templated resource and completes its variable', async () => {
    const read = await client.readResource('notes://note/n2');
    expect(JSON.stringify(read.contents)).to.include('Weather station battery');
    const completion = await client.complete({ type: 'ref/resource', uri: 'notes://note/{id}' }, { name: 'id', value: 'n' });
    expect(completion.completion.values).to.include('n1');
  });
});
