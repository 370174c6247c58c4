import { describe, expect, test } from 'vitest';
import { DEFAULT, startHarness } from '../helpers/harness';

const payments = (h: Awaited<ReturnType<typeof startHarness>>) =>
  Object.values(h.sb.deps.store.account(DEFAULT.accountId).transactions).filter((t) => t.type === 'payment').length;

describe('fault injection (/_sandbox/faults)', () => {
  test('a rule answers its error status in the envelope before the route runs, so nothing is created', async () => {
    const h = await startHarness();
    const put = await h.control('PUT', '/faults', { rules: [{ method: 'POST', path: '/v2/pix', status: 503 }] });
    expect(put.status, put.text).toBe(200);
    const res = await h.v2('POST', '/pix', { body: { amount: 10, description: 'x' } });
    expect(res.status, res.text).toBe(503);
    expect(res.body).toMatchObject({ statusCode: 503, error: 'ServiceUnavailable', details: { code: 'INJECTED_FAULT' }, timestamp: expect.any(String), traceId: expect.any(String) });
    expect(payments(h)).toBe(0);
    expect((await h.v2('GET', '/account')).status).toBe(200); // other routes are untouched
  });

  test('times limits a rule to the next N matching requests; * matches any run of the path', async () => {
    const h = await startHarness();
    await h.control('PUT', '/faults', { rules: [{ path: '/v2/transactions/*', status: 500, times: 2 }] });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await h.v2('GET', '/transactions/anything')).status);
    expect(statuses).toEqual([500, 500, 404]);
  });

  test('429 carries Retry-After and the RATE_LIMITED code', async () => {
    const h = await startHarness();
    await h.control('PUT', '/faults', { rules: [{ path: '/v2/account', status: 429 }] });
    const res = await h.v2('GET', '/account');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.body.details.code).toBe('RATE_LIMITED');
  });

  test('rate 0 never fires; DELETE and reset clear the rules', async () => {
    const h = await startHarness();
    await h.control('PUT', '/faults', { rules: [{ path: '/v2/account', status: 500, rate: 0 }] });
    expect((await h.v2('GET', '/account')).status).toBe(200);
    await h.control('PUT', '/faults', { rules: [{ path: '/v2/account', status: 500 }] });
    expect((await h.control('DELETE', '/faults')).body).toEqual({ rules: [] });
    expect((await h.v2('GET', '/account')).status).toBe(200);
    await h.control('PUT', '/faults', { rules: [{ path: '/v2/account', status: 500 }] });
    await h.control('POST', '/reset');
    expect((await h.control('GET', '/faults')).body.rules).toEqual([]);
  });

  test('a latency-only rule lets the request through', async () => {
    const h = await startHarness();
    await h.control('PUT', '/faults', { rules: [{ path: '/v2/account', latencyMs: 5 }] });
    expect((await h.v2('GET', '/account')).status).toBe(200);
  });

  test.each([
    [{ rules: [{ path: 'v2/pix', status: 500 }] }, 'rules[0].path'],
    [{ rules: [{ path: '/v2/pix', status: 200 }] }, 'rules[0].status'],
    [{ rules: [{ path: '/v2/pix', status: 500, rate: 2 }] }, 'rules[0].rate'],
    [{ rules: [{ path: '/v2/pix', method: 'FETCH' }] }, 'rules[0].method'],
  ])('a bad rule is 400 naming the field (%j)', async (body, field) => {
    const h = await startHarness();
    const res = await h.control('PUT', '/faults', body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.fields.map((f: { field: string }) => f.field)).toContain(field);
  });
});
