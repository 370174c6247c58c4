// Sixty-odd wrong requests to the control API and what each answer says (sandbox.md 14). The control API is the
// sandbox's own, so an unknown field is always a 400 naming it and the field meant, and nothing is made: a tenant
// spec with "balence" or "webhook" is refused, not a tenant without them.
import { beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT, startHarness, type Harness } from '../helpers/harness';
import { expectEnvelopeAnswer, label, type Wrong } from './table';

const TX = '00000000-0000-4000-8000-000000000000';
const ACC = `/_sandbox/accounts/${DEFAULT.accountId}`;
const typo = (method: string, path: string, body: unknown, field: string, suggestion?: string): Wrong => ({ kind: 'typo', method, path, body, field, suggestion, status: 400 });
const spec = (over: Record<string, unknown>) => ({ name: 'Typo', ...over });

// prettier-ignore
const TYPOS: Wrong[] = [
  typo('POST', '/_sandbox/accounts', spec({ balence: 500 }), 'balence', 'balance'),
  typo('POST', '/_sandbox/accounts', spec({ webhook: [{ url: 'https://example.com' }] }), 'webhook', 'webhooks'),
  typo('POST', '/_sandbox/accounts', spec({ nmae: 'x' }), 'nmae', 'name'),
  typo('POST', '/_sandbox/accounts', spec({ enviroment: 'sandbox' }), 'enviroment', 'environment'),
  typo('POST', '/_sandbox/accounts', spec({ subaccounts: [] }), 'subaccounts', 'subAccounts'),
  typo('POST', '/_sandbox/accounts', spec({ strct: true }), 'strct', 'strict'),
  typo('POST', '/_sandbox/accounts', spec({ fees: { pix: { percnt: 1 } } }), 'fees.pix.percnt', 'fees.pix.percent'),
  typo('POST', '/_sandbox/accounts', spec({ fees: { withdrawl: { fixed: 1 } } }), 'fees.withdrawl', 'fees.withdrawal'),
  typo('POST', '/_sandbox/accounts', spec({ limits: { withdrawlMax: 10 } }), 'limits.withdrawlMax', 'limits.withdrawalMax'),
  typo('POST', '/_sandbox/accounts', spec({ automation: { magicValue: true } }), 'automation.magicValue', 'automation.magicValues'),
  typo('POST', '/_sandbox/accounts', spec({ subAccounts: [{ reference: 'loja-a', referance: 'x' }] }), 'subAccounts[0].referance', 'subAccounts[0].reference'),
  typo('POST', '/_sandbox/accounts', spec({ projects: [{ name: 'P', colr: '#123456' }] }), 'projects[0].colr', 'projects[0].color'),
  typo('POST', '/_sandbox/accounts', spec({ credentials: [{ permisions: ['FULL_ACCESS'] }] }), 'credentials[0].permisions', 'credentials[0].permissions'),
  typo('POST', '/_sandbox/accounts', spec({ apiKeys: [{ permission: ['FULL_ACCESS'] }] }), 'apiKeys[0].permission', 'apiKeys[0].permissions'),
  typo('POST', '/_sandbox/accounts', spec({ webhooks: [{ url: 'https://example.com', evnts: [] }] }), 'webhooks[0].evnts', 'webhooks[0].events'),
  typo('POST', '/_sandbox/accounts', spec({ institutions: [{ name: 'I', enabeld: true }] }), 'institutions[0].enabeld', 'institutions[0].enabled'),
  typo('POST', '/_sandbox/accounts', spec({ clock: { frozn: true } }), 'clock.frozn', 'clock.frozen'),
  typo('POST', '/_sandbox/accounts', spec({ pixKeys: [{ key: 'a@b.co', type: 'email', tipe: 'email' }] }), 'pixKeys[0].tipe', 'pixKeys[0].type'),
  typo('POST', '/_sandbox/accounts', spec({ bankAccounts: [{ bank: '001', agency: '1', account: '2', holderName: 'H', holderDocument: '12345678909', agencia: '1' }] }), 'bankAccounts[0].agencia', 'bankAccounts[0].agency'),
  typo('POST', '/_sandbox/accounts', spec({ zzzzzz: 1 }), 'zzzzzz'),
  typo('PATCH', ACC, { nmae: 'x' }, 'nmae', 'name'),
  typo('PATCH', ACC, { stict: true }, 'stict', 'strict'),
  typo('PATCH', ACC, { webhookHeaderWorld: 'X' }, 'webhookHeaderWorld', 'webhookHeaderWord'),
  typo('PATCH', ACC, { fees: { refund: { fixd: 1 } } }, 'fees.refund.fixd', 'fees.refund.fixed'),
  typo('PUT', '/_sandbox/clock', { frozn: true }, 'frozn', 'frozen'),
  typo('POST', '/_sandbox/clock/advance', { seconds: 1, secnds: 1 }, 'secnds', 'seconds'),
  typo('POST', `/_sandbox/transactions/${TX}/pay`, { payerNme: 'x' }, 'payerNme', 'payerName'),
  typo('PUT', '/_sandbox/faults', { rules: [{ method: 'GET', path: '/v2/account', status: 503, latncyMs: 1 }] }, 'rules[0].latncyMs', 'rules[0].latencyMs'),
  typo('POST', `${ACC}/webhooks`, { url: 'https://example.com', evnts: [] }, 'evnts', 'events'),
  typo('PATCH', `/_sandbox/webhooks/${DEFAULT.webhookId}`, { urll: 'https://example.com' }, 'urll', 'url'),
  typo('POST', '/_sandbox/reset', { clok: null }, 'clok', 'clock'),
  typo('POST', '/_sandbox/brcodes/decode', { code: 'x', cod: 'x' }, 'cod', 'code'),
  typo('POST', `${ACC}/adjustments`, { amount: 1, descripton: 'x' }, 'descripton', 'description'),
  typo('POST', `${ACC}/sub-accounts`, { reference: 'loja-typo', nme: 'x' }, 'nme', 'name'),
  typo('PATCH', `${ACC}/credentials/${DEFAULT.full.id}`, { subAccountAcess: true }, 'subAccountAcess', 'subAccountAccess'),
];

// prettier-ignore
const OTHERS: Wrong[] = [
  { kind: 'type', method: 'POST', path: '/_sandbox/accounts', body: spec({ balance: 'lots' }), field: 'balance' },
  { kind: 'type', method: 'POST', path: '/_sandbox/accounts', body: spec({ strict: 'yes' }), field: 'strict' },
  { kind: 'type', method: 'POST', path: '/_sandbox/accounts', body: spec({ webhooks: {} }), field: 'webhooks' },
  { kind: 'type', method: 'POST', path: '/_sandbox/accounts', body: spec({ subAccounts: [{ reference: 5 }] }), field: 'subAccounts[0].reference' },
  { kind: 'type', method: 'PATCH', path: ACC, body: { institutionChoice: 'on' }, field: 'institutionChoice' },
  { kind: 'type', method: 'PATCH', path: ACC, body: { strict: 1 }, field: 'strict' },
  { kind: 'type', method: 'POST', path: '/_sandbox/clock/advance', body: { seconds: 'ten' }, field: 'seconds' },
  { kind: 'type', method: 'PUT', path: '/_sandbox/clock', body: { frozen: 'yes' }, field: 'frozen' },
  { kind: 'type', method: 'POST', path: `${ACC}/webhooks`, body: { url: 5 }, field: 'url' },
  { kind: 'type', method: 'PUT', path: '/_sandbox/faults', body: { rules: 'all' }, field: 'rules' },
  { kind: 'method', method: 'DELETE', path: '/_sandbox/clock', allow: 'GET, HEAD, PUT' },
  { kind: 'method', method: 'GET', path: '/_sandbox/reset', allow: 'POST' },
  { kind: 'method', method: 'PUT', path: '/_sandbox/accounts', allow: 'GET, HEAD, POST' },
  { kind: 'method', method: 'GET', path: '/_sandbox/clock/advance', allow: 'POST' },
  { kind: 'method', method: 'GET', path: '/_sandbox/settle', allow: 'POST' },
  { kind: 'method', method: 'POST', path: '/_sandbox/health', allow: 'GET, HEAD' },
  { kind: 'method', method: 'PUT', path: `/_sandbox/transactions/${TX}/pay`, allow: 'POST' },
  { kind: 'path', method: 'POST', path: '/_sandbox/acounts', suggestion: 'POST /_sandbox/accounts' },
  { kind: 'path', method: 'POST', path: '/_sandbox/rest', suggestion: 'POST /_sandbox/reset' },
  { kind: 'path', method: 'POST', path: '/_sandbox/clock/advanse', suggestion: 'POST /_sandbox/clock/advance' },
  { kind: 'path', method: 'GET', path: '/_sandbox/helth', suggestion: 'GET /_sandbox/health' },
  { kind: 'path', method: 'PUT', path: '/_sandbox/fault', suggestion: 'PUT /_sandbox/faults' },
  { kind: 'path', method: 'POST', path: '/_sandbox/setle', suggestion: 'POST /_sandbox/settle' },
  { kind: 'path', method: 'POST', path: `${ACC}/webhook`, suggestion: 'POST /_sandbox/accounts/{id}/webhooks' },
  { kind: 'path', method: 'POST', path: '/_sandbox/brcode/decode', suggestion: 'POST /_sandbox/brcodes/decode' },
];

describe('control API', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  test.each([...TYPOS, ...OTHERS].map((w) => [label(w), w] as const))('%s', async (_label, w) => {
    const body = 'body' in w ? { body: w.body } : w.method === 'GET' || w.method === 'HEAD' ? {} : { body: {} };
    expectEnvelopeAnswer(w, await h.api(w.method, w.path, body), true);
  });
});

test('the control table has at least 60 wrong requests', () => {
  expect(TYPOS.length + OTHERS.length).toBeGreaterThanOrEqual(60);
});

test('a tenant spec with "balence" and "webhook" is refused and makes no tenant', async () => {
  const h = await startHarness();
  const before = (await h.control('GET', '/accounts')).body;
  const res = await h.control('POST', '/accounts', { name: 'Typo', balence: 500, webhook: [] });
  expect(res.status, res.text).toBe(400);
  expect(res.body.message).toBe('Invalid request: balence is not a field of this request; did you mean "balance"?; webhook is not a field of this request; did you mean "webhooks"?');
  expect((await h.control('GET', '/accounts')).body).toEqual(before);
});

test('a control webhook URL production could never reach is taken with a warning', async () => {
  const h = await startHarness();
  const res = await h.control('POST', `/accounts/${DEFAULT.accountId}/webhooks`, { url: 'http://127.0.0.1:3000/hooks' });
  expect(res.status, res.text).toBe(201);
  expect(res.headers.get('sandbox-warning')).toContain('url "http://127.0.0.1:3000/hooks" is a loopback address and plain http');
});

test('the default world (fixtures/default.json) names no field the control API would refuse', async () => {
  const { readFileSync } = await import('node:fs');
  const { FixturesSchema } = await import('../../src/control/schemas');
  const { unknownFields } = await import('../../src/wire/unknown-fields');
  const fixtures = JSON.parse(readFileSync(new URL('../../fixtures/default.json', import.meta.url), 'utf8'));
  expect(unknownFields(FixturesSchema, fixtures)).toBeUndefined();
});
