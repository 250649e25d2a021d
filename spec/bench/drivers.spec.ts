/**
 * Smoke test of the bench: every driver connects, echoes, survives both workloads for a few
 * calls and closes (stdio servers run from source through tsx). Numbers are not checked.
 */
import { expect } from 'chai';
import { TEXT, type ImplName, type TransportName } from '../../bench/common.js';
import { createDriver } from '../../bench/drivers.js';
import { measure } from '../../bench/measure.js';

const cases: [TransportName, ImplName][] = [
  ['memory', 'ours'],
  ['memory', 'ours-serialize'],
  ['memory', 'sdk'],
  ['memory', 'sdk-mcpserver'],
  ['memory', 'bare'],
  ['stdio', 'ours'],
  ['stdio', 'sdk'],
  ['stdio', 'bare'],
];

describe('bench drivers (smoke)', () => {
  for (const [transport, impl] of cases) {
    it(`${impl} over ${transport} echoes and runs both workloads`, async () => {
      const driver = await createDriver(impl, transport);
      try {
        expect(await driver.call()).to.equal(TEXT);
        const seq = await measure(driver, 'sequential', 20, 4);
        const pipe = await measure(driver, 'pipelined', 50, 8);
        for (const r of [seq, pipe]) {
          expect(r.callsPerSec).to.be.greaterThan(0);
          expect(r.p99us).to.be.at.least(r.p50us);
        }
      } finally {
        await driver.close();
      }
    });
  }
});
