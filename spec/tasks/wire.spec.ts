// One task record, two wire forms: the 2025-11-25 core tasks and the 2026-07-28 extension.
import { expect } from 'chai';
import { applyTaskEvent, type TaskRecord } from '../../lib/tasks/task-record.js';
import { legacyTask, RELATED_TASK } from '../../lib/tasks/wire-2025-11-25.js';
import { extensionCreateTaskResult, extensionGetTaskResult, toolResultEvent } from '../../lib/tasks/wire-extension.js';

const base: TaskRecord = {
  taskId: 'abc',
  owner: 'sub:alice',
  method: 'tools/call',
  status: 'working',
  createdAt: Date.UTC(2026, 6, 28, 10, 30),
  lastUpdatedAt: Date.UTC(2026, 6, 28, 10, 30),
  ttl: 60_000,
  pollInterval: 5_000,
  statusMessage: 'Working',
  seq: 1,
};
const toolError = { content: [{ type: 'text', text: 'bad input' }], isError: true };

describe('tasks: one record, both wire forms', () => {
  it('[TASK-031] [TASK-032] [TASK-033] 2025-11-25: ttl and pollInterval in ms, ISO timestamps, no related-task metadata', () => {
    expect(legacyTask(base)).to.deep.equal({
      taskId: 'abc',
      status: 'working',
      createdAt: '2026-07-28T10:30:00.000Z',
      lastUpdatedAt: '2026-07-28T10:30:00.000Z',
      ttl: 60_000,
      statusMessage: 'Working',
      pollInterval: 5_000,
    });
    expect(legacyTask({ ...base, ttl: null }).ttl).to.equal(null);
    expect(legacyTask(base)).to.not.have.property('_meta');
    expect(RELATED_TASK).to.equal('io.modelcontextprotocol/related-task');
  });

  it('the extension: flat CreateTaskResult with resultType "task", ttlMs and pollIntervalMs, no ttl/pollInterval', () => {
    const created = extensionCreateTaskResult(base);
    expect(created).to.deep.equal({
      resultType: 'task',
      taskId: 'abc',
      status: 'working',
      createdAt: '2026-07-28T10:30:00.000Z',
      lastUpdatedAt: '2026-07-28T10:30:00.000Z',
      ttlMs: 60_000,
      statusMessage: 'Working',
      pollIntervalMs: 5_000,
    });
    expect(created).to.not.have.any.keys('ttl', 'pollInterval', '_meta', 'task');
  });

  it('a tool result with isError: failed in 2025-11-25, completed with the result inlined in the extension', () => {
    expect(toolResultEvent(toolError, 'core-2025-11-25')).to.equal('FAIL');
    expect(toolResultEvent(toolError, 'extension')).to.equal('COMPLETE');
    const done = applyTaskEvent(base, { type: toolResultEvent(toolError, 'extension'), now: base.createdAt + 10, outcome: { result: toolError } })!.record!;
    expect(extensionGetTaskResult(done)).to.deep.include({ resultType: 'complete', status: 'completed', result: toolError });
  });

  it('the extension inlines a JSON-RPC error of a failed task, and the input requests of a waiting one', () => {
    const failed = applyTaskEvent(base, { type: 'FAIL', now: base.createdAt + 1, outcome: { error: { code: -32602, message: 'bad' } } })!.record!;
    expect(extensionGetTaskResult(failed)).to.deep.include({ status: 'failed', error: { code: -32602, message: 'bad' } });
    const waiting = applyTaskEvent(base, { type: 'INPUT_REQUIRED', now: base.createdAt + 1 })!.record!;
    const requests = { name: { method: 'elicitation/create', params: { message: 'Name?' } } };
    expect(extensionGetTaskResult(waiting, requests)).to.deep.include({ status: 'input_required', inputRequests: requests });
    expect(extensionGetTaskResult(base)).to.not.have.any.keys('result', 'error', 'inputRequests');
  });
});
