// TASK-078: monitoring and alerting for resource usage. `mcp.tasks.audit$` is enough to watch how
// many tasks each requestor holds (created, less ended or expired) and to raise an alert when a
// limit refuses one: the refusal names the limit, the requestor gets -32090, and the gauge falls
// back as tasks end or expire (the TTL on the server's simulated clock).
import { expect } from 'chai';
import { McpError } from '../../lib/errors.js';
import type { TaskAuditEvent } from '../../lib/tasks/task-audit.js';
import { deferred, link, taskServer } from './helpers.js';

describe('tasks: watching resource usage', () => {
  it('[TASK-078] live tasks per requestor and an alert at the limit, from the audit trail alone', async () => {
    const { mcp, clock } = taskServer({ maxLivePerOwner: 2 });
    const release = deferred();
    mcp.registerTool('render', { execution: { taskSupport: 'required' } }, async () => {
      await release.promise;
      return 'rendered';
    });
    const live = new Map<string, number>();
    const alerts: TaskAuditEvent[] = [];
    mcp.tasks.audit$.subscribe((e) => {
      if (e.type === 'created') live.set(e.owner, (live.get(e.owner) ?? 0) + 1);
      if (e.type === 'ended' || e.type === 'expired') live.set(e.owner, (live.get(e.owner) ?? 0) - 1);
      if (e.type === 'refused' && e.reason?.startsWith('task limit')) alerts.push(e);
    });
    const { client } = await link(mcp, { subject: 'carol' });
    const first = await client.callToolAsTask('render', {}, { ttl: 30_000 });
    await client.callToolAsTask('render', {}, { ttl: 60_000 });
    expect(live.get('sub:carol')).to.equal(2);
    const refused = await client.callToolAsTask('render', {}).catch((e: unknown) => e);
    expect((refused as McpError).code).to.equal(-32090);
    expect(alerts.map((e) => [e.owner, e.reason])).to.deep.equal([['sub:carol', 'task limit (requestor)']]);
    expect(live.get('sub:carol')).to.equal(2);
    // The first task's TTL runs out: the gauge falls, a slot is free again.
    clock.advance(30_001);
    for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
    expect(live.get('sub:carol')).to.equal(1);
    expect((await client.getTask(first.taskId).catch((e: unknown) => e)) as McpError).to.be.instanceOf(McpError);
    await client.callToolAsTask('render', {});
    expect(live.get('sub:carol')).to.equal(2);
    release.resolve();
  });
});
