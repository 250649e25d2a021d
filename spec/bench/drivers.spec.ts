/**
 * Smoke test of the bench: every driver connects, echoes, survives both workloads for a few
 * calls and closes (stdio and HTTP servers run from source through tsx). Numbers are not checked.
 */
import { expect } from 'chai';
import { TEXT, type ImplName, type TransportName } from '../../bench/common.js';
import { createDriver, type Driver } from '../../bench/drivers.js';
import { createHttpCallDriver, createHttpDriver } from '../../bench/http-drivers.js';
import { measure, measureSessions } from '../../bench/measure.js';
import { createModernDriver, measureRequestMemory, ModernUnavailable } from '../../bench/modern-drivers.js';

const cases: [TransportName, ImplName][] = [
  ['memory', 'ours'],
  ['memory', 'ours-serialize'],
  ['memory', 'sdk1'],
  ['memory', 'sdk2'],
  ['memory', 'bare'],
  ['stdio', 'ours'],
  ['stdio', 'sdk1'],
  ['stdio', 'sdk2'],
  ['stdio', 'bare'],
];

async function bothWorkloads(driver: Driver): Promise<void> {
  expect(await driver.call()).to.equal(TEXT);
  const seq = await measure(driver, 'sequential', 20, 4);
  const pipe = await measure(driver, 'pipelined', 50, 8);
  for (const r of [seq, pipe]) {
    expect(r.callsPerSec).to.be.greaterThan(0);
    expect(r.p99us).to.be.at.least(r.p50us);
  }
}

describe('bench drivers (smoke)', function () {
  this.timeout(20_000);

  for (const [transport, impl] of cases) {
    it(`${impl} over ${transport} echoes and runs both workloads`, async () => {
      const driver = await createDriver(impl, transport);
      try {
        await bothWorkloads(driver);
      } finally {
        await driver.close();
      }
    });
  }

  // ab.js's `http` rows: each implementation's own client and server, one client, both workloads.
  const httpCalls: [string, () => Promise<Driver>, RegExp][] = [
    ['our Client and server in the legacy era', () => createHttpCallDriver('ours', 'json', { era: 'legacy' }), /\(2025-11-25\)/],
    ['our Client and server in the 2026-07-28 era', () => createHttpCallDriver('ours', 'json', { era: 'modern' }), /\(2026-07-28\)/],
    ['SDK 1.x client and server answering in SSE', () => createHttpCallDriver('sdk1', 'sse'), /sdk 1\.x, http sse/],
  ];
  for (const [what, make, label] of httpCalls) {
    it(`${what} over Streamable HTTP echo and run both workloads`, async () => {
      const driver = await make();
      try {
        expect(driver.label).to.match(label);
        await bothWorkloads(driver);
      } finally {
        await driver.close();
      }
    });
  }

  for (const mode of ['json', 'sse'] as const) {
    it(`sdk2 over Streamable HTTP (${mode}, sessionful) echoes on two sessions at once`, async () => {
      const driver = await createHttpDriver('sdk2', mode);
      try {
        await driver.open(2);
        expect(driver.sessions).to.equal(2);
        const r = await measureSessions(driver, 5);
        expect(r.calls).to.equal(10);
      } finally {
        await driver.close();
      }
    });
  }

  it('the SDK v2 client in the 2026-07-28 era echoes against the SDK v2 server, both workloads, and its memory per request is measured', async () => {
    const driver = await createModernDriver('sdk2');
    try {
      await bothWorkloads(driver);
      const mem = await measureRequestMemory(driver, 20);
      expect(mem.calls).to.equal(20);
      expect(mem.heapBefore).to.be.greaterThan(0);
    } finally {
      await driver.close();
    }
  });

  it('hand-written 2026-07-28 requests on undici echo against the SDK v2 server, both workloads', async () => {
    const driver = await createModernDriver('sdk2', 'undici');
    try {
      await bothWorkloads(driver);
    } finally {
      await driver.close();
    }
  });

  it('our server either serves the SDK v2 client in the 2026-07-28 era or is reported unavailable with what it answered', async () => {
    let driver: Driver | undefined;
    try {
      driver = await createModernDriver('ours');
    } catch (e) {
      // A build without the revision: the row says so instead of failing the run.
      expect(e).to.be.instanceOf(ModernUnavailable);
      expect((e as Error).message).to.match(/2026-07-28/);
      return;
    }
    try {
      await bothWorkloads(driver);
    } finally {
      await driver.close();
    }
  });
});
