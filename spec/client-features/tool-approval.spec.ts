import { expect } from 'chai';
import { McpError } from '../../lib/errors.js';
import { approveReadOnlyFromTrustedServers, ToolCallDeniedError, type ToolCallApprovalRequest } from '../../lib/client-features/tool-approval.js';
import type { ToolCallRecord } from '../../lib/client-features/tool-audit.js';
import type { Tool } from '../../lib/protocol/schema/index.js';
import { flush, pair, rejection } from './helpers.js';
import type { ClientOptions } from '../../lib/entries/client.js';

const TOOLS: Tool[] = [
  { name: 'read_file', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  { name: 'delete_file', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, destructiveHint: true } },
  { name: 'fail', inputSchema: { type: 'object' } },
  { name: 'broken', inputSchema: { type: 'object' } },
];

/** A server with TOOLS that records the tools/call params it receives. */
async function toolServer(client: Partial<ClientOptions> = {}) {
  const calls: unknown[] = [];
  const p = await pair({
    serverCapabilities: { tools: {} },
    client,
    setup: (_c, server) => {
      server.onRequest('tools/list', () => ({ tools: TOOLS as any }));
      server.onRequest('tools/call', (params) => {
        calls.push(params);
        if (params?.name === 'fail') return { content: [{ type: 'text', text: 'no such file' }], isError: true };
        if (params?.name === 'broken') throw new McpError(-32602, 'Unknown tool: broken');
        return { content: [{ type: 'text', text: 'ok' }] };
      });
    },
  });
  return { ...p, calls };
}

describe('client features: tool call approval and audit', () => {
  it('[TOOL-001] [TOOL-004] [TOOL-016] [TOOL-017] [SEC-008] the approver sees server, tool and exact arguments before anything is sent; a denial sends nothing', async () => {
    const seen: ToolCallApprovalRequest[] = [];
    let decide!: (ok: boolean | { approved: boolean; reason?: string }) => void;
    const { client, calls } = await toolServer({
      approveToolCall: (request) => {
        seen.push(request);
        return new Promise((resolve) => (decide = resolve));
      },
    });
    await client.listTools();

    const call = client.callTool('read_file', { path: '/etc/hosts' });
    await flush();
    // The user is looking at the prompt: nothing has reached the server yet.
    expect(calls).to.deep.equal([]);
    expect(seen).to.have.length(1);
    expect(seen[0]).to.deep.include({ tool: 'read_file', arguments: { path: '/etc/hosts' }, annotations: { readOnlyHint: true }, annotationsTrusted: false });
    expect(seen[0]!.server).to.deep.equal(client.serverInfo);
    expect(seen[0]!.definition?.name).to.equal('read_file');
    decide(true);
    expect((await call).content).to.deep.equal([{ type: 'text', text: 'ok' }]);
    expect(calls).to.deep.equal([{ name: 'read_file', arguments: { path: '/etc/hosts' } }]);

    const denied = client.callTool('delete_file', { path: '/' });
    await flush();
    decide({ approved: false, reason: 'not today' });
    const e = await rejection(denied);
    expect(e).to.be.instanceOf(ToolCallDeniedError);
    expect(e.message).to.match(/"delete_file" was denied: not today; it was not sent/);
    await flush();
    expect(calls).to.have.length(1);
  });

  it('[TOOL-001] an approver that throws or answers something odd refuses the call', async () => {
    let answer: () => unknown = () => 'yes';
    const { client, calls } = await toolServer({ approveToolCall: () => answer() as boolean });
    expect(await rejection(client.callTool('read_file', {}))).to.be.instanceOf(ToolCallDeniedError);
    answer = () => {
      throw new Error('prompt crashed');
    };
    expect((await rejection(client.callTool('read_file', {}))).message).to.equal('prompt crashed');
    await flush();
    expect(calls).to.deep.equal([]);
  });

  it('[TOOL-007] annotations count only for trusted servers: read-only tools of an untrusted server still ask the user', async () => {
    const asked: string[] = [];
    const ask = (r: ToolCallApprovalRequest) => {
      asked.push(r.tool);
      return true;
    };
    const untrusted = await toolServer({ approveToolCall: approveReadOnlyFromTrustedServers(ask) });
    await untrusted.client.listTools();
    await untrusted.client.callTool('read_file', {});
    expect(asked, 'an untrusted server claiming readOnlyHint is still asked about').to.deep.equal(['read_file']);

    asked.length = 0;
    const trusted = await toolServer({ approveToolCall: approveReadOnlyFromTrustedServers(ask), trustedServer: true });
    await trusted.client.listTools();
    await trusted.client.callTool('read_file', {});
    expect(asked, 'read-only tool of a trusted server goes through').to.deep.equal([]);
    await trusted.client.callTool('delete_file', {});
    await trusted.client.callTool('fail', {});
    expect(asked, 'destructive or unannotated tools are asked about').to.deep.equal(['delete_file', 'fail']);
    expect(trusted.calls).to.have.length(3);
  });

  it('[TOOL-020] toolCalls$ records every call: server, tool, redacted arguments, timing on the client clock, outcome', async () => {
    const { client, clock } = await toolServer({ approveToolCall: (r) => r.tool !== 'delete_file' });
    const records: ToolCallRecord[] = [];
    client.toolCalls$.subscribe((r) => records.push(r));
    await client.listTools();

    const ok = client.callTool('read_file', { path: '/a', apiKey: 'sk-123', nested: { password: 'hunter2' } });
    clock.advance(25);
    await ok;
    await client.callTool('fail', {});
    await rejection(client.callTool('broken', {}));
    await rejection(client.callTool('delete_file', { path: '/' }));

    expect(records.map((r) => [r.tool, r.outcome])).to.deep.equal([
      ['read_file', 'success'],
      ['fail', 'tool-error'],
      ['broken', 'failed'],
      ['delete_file', 'denied'],
    ]);
    expect(records[0]!.arguments).to.deep.equal({ path: '/a', apiKey: '[REDACTED]', nested: { password: '[REDACTED]' } });
    expect(JSON.stringify(records)).not.to.include('sk-123').and.not.to.include('hunter2');
    expect(records[0]).to.include({ startedAt: 0, endedAt: 25, durationMs: 25 });
    expect(records[0]!.server).to.deep.equal(client.serverInfo);
    expect(records[2]!.error).to.deep.equal({ name: 'McpError', message: 'Unknown tool: broken', code: -32602 });
    expect(records[3]!.error?.name).to.equal('ToolCallDeniedError');
  });

  it('[TOOL-020] [SEC-012] toolCalls$ hides secrets inside an argument that holds JSON, leaving other strings as they are', async () => {
    const { client, calls } = await toolServer();
    const records: ToolCallRecord[] = [];
    client.toolCalls$.subscribe((r) => records.push(r));
    await client.listTools();
    const payload = JSON.stringify({ user: 'ada', password: 'hunter2', list: [{ token: 'tok_1' }] });
    await client.callTool('read_file', { path: '/a', payload, text: '[not json' });
    expect(records[0]!.arguments).to.deep.equal({ path: '/a', payload: JSON.stringify({ user: 'ada', password: '[REDACTED]', list: [{ token: '[REDACTED]' }] }), text: '[not json' });
    expect(JSON.stringify(records)).not.to.include('hunter2').and.not.to.include('tok_1');
    // The server still gets the arguments as they were.
    expect(JSON.stringify(calls)).to.include('hunter2');
  });
});
