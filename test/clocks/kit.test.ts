// The test kit and tenant clocks (sandbox.md 4.6): a suite whose tenant has a clock of its own moves it alone.
import { afterEach, expect, test } from 'vitest';
import { startSandbox, type TestSandbox } from '../../src/testing/index';

const T0 = '2026-03-10T12:00:00.000Z';
const open: TestSandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

async function pendingCharge(sb: TestSandbox, token: string): Promise<string> {
  const res = await fetch(`${sb.v2Url}/pix`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ amount: 10, description: 'kit', expiresIn: 600 }) });
  const body = (await res.json()) as { id: string };
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.id;
}

test("a suite whose account spec gives clock advances its tenant's clock alone; control.clock.of moves another tenant's", async () => {
  const sb = await startSandbox({ clockStart: T0, freezeClock: true, log: () => {}, account: { name: 'Suite', clock: {} } });
  open.push(sb);
  const token = await sb.token();
  const id = await pendingCharge(sb, token);
  const moved = await sb.advance(3600);
  expect(moved).toEqual({ now: '2026-03-10T13:00:00.000Z', frozen: true, own: true });
  expect(await sb.control.clock.get()).toEqual({ now: T0, frozen: true });
  const read = await fetch(`${sb.v2Url}/transactions/${id}`, { headers: { authorization: `Bearer ${token}` } });
  expect(((await read.json()) as { status: string }).status).toBe('cancelled');
  // The same token still works after the jump: tokens live 300 s of real time.
  expect((await fetch(`${sb.v2Url}/account`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

  const other = await sb.control.accounts.create({ name: 'Other suite' });
  expect(await sb.control.clock.of(other.id).get()).toEqual({ now: T0, frozen: true, own: false });
  expect(await sb.control.clock.of(other.id).set('2026-04-01T00:00:00Z')).toEqual({ now: '2026-04-01T00:00:00.000Z', frozen: true, own: true });
  expect(await sb.control.clock.of(sb.accountId).get()).toEqual({ now: '2026-03-10T13:00:00.000Z', frozen: true, own: true });
});
