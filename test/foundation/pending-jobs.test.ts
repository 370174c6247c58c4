// GET /_sandbox/health's pendingJobs is a count the scheduler keeps as it adds and takes jobs off (it no longer walks
// every stored job per call): after each step that adds, runs, undoes, deletes or replaces jobs, it must equal the jobs
// the state holds.
import { describe, expect, test } from 'vitest';
import type { UnitHooks } from '../../src/store/unit';
import { DEFAULT, failEachWrite, type Harness } from '../helpers/harness';
import { act, newCharge, withReceiver } from '../helpers/webhooks';

const pendingJobs = async (h: Harness) => {
  const res = await h.control('GET', '/health');
  expect(res.status, res.text).toBe(200);
  return res.body.pendingJobs as number;
};
const storedJobs = (h: Harness) => Object.keys(h.sb.deps.store.raw.jobs).length;

describe("health's pendingJobs", () => {
  test('equals the jobs the state holds after each step that changes them', async () => {
    const hooks: UnitHooks = {};
    const { h, receiver } = await withReceiver({ testHooks: hooks });
    receiver.answer(500); // a failed attempt leaves its retry waiting
    const ids: string[] = [];
    const steps: Array<[string, () => Promise<unknown>, number]> = [
      ['three charges made (their expiries are deadlines they date: no job)', async () => ids.push(await newCharge(h), await newCharge(h), await newCharge(h)), 0],
      ['one paid: its delivery attempted and answered 500 (its retry waits)', async () => (await act(h, ids[0]!, 'pay'), await h.sb.settle()), 1],
      ['a create whose every write fails in turn before it goes through (each undone)', () => failEachWrite(hooks, () => h.v2('POST', '/pix', { body: { amount: 10, description: 'undone' } })), 0],
      ['the clock 3 days on, past the retry and the expiries (the retry answered 200, the expiries\' deliveries too)', async () => (receiver.answer(200), await h.advance(3 * 24 * 3600), await h.sb.settle()), -1],
      ['two more charges, then their account deleted', async () => (await newCharge(h), await newCharge(h), await h.control('DELETE', `/accounts/${DEFAULT.accountId}`)), 0],
      ['a reset (the default world again)', () => h.control('POST', '/reset'), 0],
      ['one more charge after the reset', () => newCharge(h), 0],
    ];
    let before = await pendingJobs(h);
    expect(before).toBe(storedJobs(h));
    for (const [what, step, change] of steps) {
      await step();
      const now = await pendingJobs(h);
      expect(now, what).toBe(storedJobs(h));
      expect(now - before, what).toBe(change);
      before = now;
    }
  });
});
