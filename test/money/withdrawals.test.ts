import { describe, expect, test } from 'vitest';
import { isE2eId } from '../../src/pix';
import { DEFAULT, expectLedgerBalanced, startHarness, type Harness } from '../helpers/harness';
import { balanceOf, brl, eventsOf, snapshot, VALID_ALNUM_CNPJ, VALID_CNPJ, VALID_CPF } from '../helpers/money';

const HOLDER = { pixKey: 'fulano@example.com', pixKeyType: 'email', holderName: 'Fulano de Tal', holderDocument: VALID_CPF, holderDocumentType: 'cpf' };

const withdraw = (h: Harness, body: Record<string, unknown>, opts: { subAccount?: string; key?: string } = {}) =>
  h.v2('POST', '/withdrawals', { body: { ...HOLDER, ...body }, ...(opts.subAccount ? { subAccount: opts.subAccount } : {}), ...(opts.key ? { headers: { 'Idempotency-Key': opts.key } } : {}) });

const limits = (h: Harness, l: Record<string, number | null>) => h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { limits: l });

describe('POST /v2/withdrawals', () => {
  test('amount form: 201 pending with every field of 2.7; the gross leaves available at once', async () => {
    const h = await startHarness();
    const res = await withdraw(h, { amount: 100, externalReference: 'wd-1' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      amount: 100,
      feeAmount: 1,
      netAmount: 99,
      status: 'pending',
      snapshotHolderName: 'Fulano de Tal',
      snapshotHolderDocument: VALID_CPF,
      createdAt: '2026-03-10T12:00:00.000Z',
      projectId: DEFAULT.projectId, // the account's only project
      snapshotPixKey: 'fulano@example.com',
      snapshotPixKeyType: 'email',
      failureReason: null,
      pspReference: null,
      processedAt: null,
      externalReference: 'wd-1',
    });
    expect(await balanceOf(h)).toEqual({ available: 900, held: 0, promotional: 0, total: 900 });
    expectLedgerBalanced(h.sb);
  });

  test('netAmount form: gross = netAmount + fee is debited', async () => {
    const h = await startHarness();
    const res = await withdraw(h, { netAmount: 100 });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ amount: 101, feeAmount: 1, netAmount: 100, externalReference: null });
    expect((await balanceOf(h)).available).toBe(899);
  });

  test('the fee comes from the account schedule (fees.withdrawal.fixed)', async () => {
    const h = await startHarness();
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { fees: { withdrawal: { fixed: 2.5 } } });
    expect((await withdraw(h, { amount: 10 })).body).toMatchObject({ amount: 10, feeAmount: 2.5, netAmount: 7.5 });
    expect((await withdraw(h, { netAmount: 10 })).body).toMatchObject({ amount: 12.5, feeAmount: 2.5, netAmount: 10 });
  });

  test('completes by itself 2 s later: withdrawal_completed with the exact data; e2eId and the holder as counterpart', async () => {
    const h = await startHarness();
    const created = await withdraw(h, { amount: 100, externalReference: 'wd-9' });
    const id = created.body.id;
    await h.advance(1);
    expect((await h.v2('GET', `/transactions/${id}`)).body.status).toBe('pending');
    await h.advance(1);
    const tx = await h.v2('GET', `/transactions/${id}`);
    expect(tx.body).toEqual({
      id,
      status: 'completed',
      type: 'withdrawal',
      paymentMethod: 'pix',
      amount: 100,
      currency: 'BRL',
      createdAt: '2026-03-10T12:00:00.000Z',
      externalReference: 'wd-9',
      projectId: DEFAULT.projectId,
      e2eId: expect.any(String),
      counterpartName: 'Fulano de Tal',
      counterpartDocument: VALID_CPF,
      updatedAt: '2026-03-10T12:00:02.000Z',
    });
    expect(isE2eId(tx.body.e2eId)).toBe(true);
    const [event] = await eventsOf(h, 'withdrawal_completed');
    expect(event.payload).toEqual({
      event: 'withdrawal_completed',
      eventId: id,
      timestamp: '2026-03-10T12:00:02.000Z',
      subAccount: null,
      data: {
        withdrawalId: id,
        projectId: DEFAULT.projectId,
        environment: 'sandbox',
        amount: 100,
        feeAmount: 1,
        netAmount: 99,
        currency: 'BRL',
        status: 'completed',
        completedAt: '2026-03-10T12:00:02.000Z',
        externalReference: 'wd-9',
        e2eId: tx.body.e2eId,
        counterpartName: 'Fulano de Tal',
        counterpartDocument: VALID_CPF,
      },
    });
    expect((await balanceOf(h)).available).toBe(900);
    expectLedgerBalanced(h.sb);
  });

  test('withdrawal_completed carries projectId null and no externalReference when there are none', async () => {
    const h = await startHarness();
    await h.v2('POST', '/projects', { body: { name: 'Second', color: '#000000' } });
    const created = await withdraw(h, { amount: 10 });
    expect(created.body.projectId).toBeNull();
    await h.control('POST', `/transactions/${created.body.id}/complete`);
    const [event] = await eventsOf(h, 'withdrawal_completed');
    expect(event.payload.data).toEqual({
      withdrawalId: created.body.id,
      projectId: null,
      environment: 'sandbox',
      amount: 10,
      feeAmount: 1,
      netAmount: 9,
      currency: 'BRL',
      status: 'completed',
      completedAt: '2026-03-10T12:00:00.000Z',
      e2eId: expect.any(String),
      counterpartName: 'Fulano de Tal',
      counterpartDocument: VALID_CPF,
    });
  });

  test('process, then complete: processing shows as pending in GET /v2/transactions; pspReference and processedAt appear', async () => {
    const h = await startHarness();
    const created = await withdraw(h, { amount: 50 });
    const id = created.body.id;
    const processing = await h.control('POST', `/transactions/${id}/process`);
    expect(processing.status, processing.text).toBe(200);
    expect(processing.body).toMatchObject({ id, status: 'processing', pspReference: expect.stringMatching(/^sbx[A-Za-z0-9]{29}$/), processedAt: null });
    expect((await h.v2('GET', `/transactions/${id}`)).body.status).toBe('pending');
    await h.advance(5);
    const done = await h.control('POST', `/transactions/${id}/complete`);
    expect(done.status, done.text).toBe(409); // the automation completed it at 12:00:02
    const tx = await h.v2('GET', `/transactions/${id}`);
    expect(tx.body.status).toBe('completed');
    const [event] = await eventsOf(h, 'withdrawal_completed');
    expect(event.payload.data.completedAt).toBe('2026-03-10T12:00:02.000Z');
  });

  test('the control answer of complete is the withdrawal with processedAt and the same pspReference', async () => {
    const h = await startHarness();
    const id = (await withdraw(h, { amount: 50 })).body.id;
    const processing = await h.control('POST', `/transactions/${id}/process`);
    await h.advance(1);
    const done = await h.control('POST', `/transactions/${id}/complete`);
    expect(done.body).toMatchObject({ id, status: 'completed', pspReference: processing.body.pspReference, processedAt: '2026-03-10T12:00:01.000Z', failureReason: null });
  });

  test('fail with a reason: failed, the gross comes back, withdrawal_failed with the exact data', async () => {
    const h = await startHarness();
    const created = await withdraw(h, { amount: 100, externalReference: 'wd-f' });
    const id = created.body.id;
    await h.control('POST', `/transactions/${id}/process`);
    const failed = await h.control('POST', `/transactions/${id}/fail`, { reason: 'Invalid PIX key at the recipient institution' });
    expect(failed.status, failed.text).toBe(200);
    expect(failed.body).toMatchObject({ id, status: 'failed', failureReason: 'Invalid PIX key at the recipient institution', processedAt: null });
    expect((await h.v2('GET', `/transactions/${id}`)).body).toMatchObject({ status: 'failed', type: 'withdrawal' });
    expect(await balanceOf(h)).toEqual({ available: 1000, held: 0, promotional: 0, total: 1000 });
    const [event] = await eventsOf(h, 'withdrawal_failed');
    expect(event.payload).toEqual({
      event: 'withdrawal_failed',
      eventId: `withdrawal_failed_${id}`,
      timestamp: '2026-03-10T12:00:00.000Z',
      subAccount: null,
      data: {
        withdrawalId: id,
        projectId: DEFAULT.projectId,
        environment: 'sandbox',
        amount: 100,
        feeAmount: 1,
        netAmount: 99,
        currency: 'BRL',
        status: 'failed',
        failureReason: 'Invalid PIX key at the recipient institution',
        failedAt: '2026-03-10T12:00:00.000Z',
        externalReference: 'wd-f',
      },
    });
    await h.advance(10); // the completion job finds it failed
    expect(await eventsOf(h, 'withdrawal_completed')).toEqual([]);
    expectLedgerBalanced(h.sb);
  });

  test('fail without a reason uses REJECTED', async () => {
    const h = await startHarness();
    const id = (await withdraw(h, { amount: 10 })).body.id;
    const failed = await h.control('POST', `/transactions/${id}/fail`);
    expect(failed.body.failureReason).toBe('REJECTED');
    const [event] = await eventsOf(h, 'withdrawal_failed');
    expect(event.payload.data).toEqual({
      withdrawalId: id,
      projectId: DEFAULT.projectId,
      environment: 'sandbox',
      amount: 10,
      feeAmount: 1,
      netAmount: 9,
      currency: 'BRL',
      status: 'failed',
      failureReason: 'REJECTED',
      failedAt: '2026-03-10T12:00:00.000Z',
    });
  });

  test('reverse a completed withdrawal: failed with failureReason REVERSED, the gross comes back, withdrawal_reversed', async () => {
    const h = await startHarness();
    const id = (await withdraw(h, { amount: 100, externalReference: 'wd-r' })).body.id;
    await h.advance(2);
    const e2eId = (await h.v2('GET', `/transactions/${id}`)).body.e2eId;
    await h.advance(60);
    const reversed = await h.control('POST', `/transactions/${id}/reverse`, { reason: 'Recipient account closed' });
    expect(reversed.status, reversed.text).toBe(200);
    expect(reversed.body).toMatchObject({ id, status: 'failed', failureReason: 'REVERSED', processedAt: '2026-03-10T12:00:02.000Z' });
    expect((await h.v2('GET', `/transactions/${id}`)).body).toMatchObject({ status: 'failed', e2eId });
    expect(await balanceOf(h)).toEqual({ available: 1000, held: 0, promotional: 0, total: 1000 });
    const [event] = await eventsOf(h, 'withdrawal_reversed');
    expect(event.payload).toEqual({
      event: 'withdrawal_reversed',
      eventId: `withdrawal_reversed_${id}`,
      timestamp: '2026-03-10T12:01:02.000Z',
      subAccount: null,
      data: {
        withdrawalId: id,
        projectId: DEFAULT.projectId,
        environment: 'sandbox',
        amount: 100,
        feeAmount: 1,
        netAmount: 99,
        currency: 'BRL',
        status: 'reversed',
        completedAt: '2026-03-10T12:00:02.000Z',
        externalReference: 'wd-r',
        e2eId,
        counterpartName: 'Fulano de Tal',
        counterpartDocument: VALID_CPF,
        failureReason: 'REVERSED',
        reversalReason: 'Recipient account closed',
        reversedAt: '2026-03-10T12:01:02.000Z',
      },
    });
    expectLedgerBalanced(h.sb);
  });

  test('reverse without a reason says "Reversed by the PSP"', async () => {
    const h = await startHarness();
    const id = (await withdraw(h, { amount: 10 })).body.id;
    await h.control('POST', `/transactions/${id}/complete`);
    await h.control('POST', `/transactions/${id}/reverse`);
    const [event] = await eventsOf(h, 'withdrawal_reversed');
    expect(event.payload.data.reversalReason).toBe('Reversed by the PSP');
  });

  test('with automation off (completeAfterSeconds 0) it stays pending', async () => {
    const h = await startHarness();
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { automation: { completeAfterSeconds: 0 } });
    const id = (await withdraw(h, { amount: 10 })).body.id;
    await h.advance(86_400);
    expect((await h.v2('GET', `/transactions/${id}`)).body.status).toBe('pending');
    expect(Object.values(h.sb.deps.store.state.jobs).filter((j) => j.ref === id)).toEqual([]);
  });

  test('a sub-account withdraws from its own wallet and its events name it', async () => {
    const h = await startHarness();
    await h.control('POST', `/accounts/${DEFAULT.accountId}/adjustments`, { amount: 50, subAccount: 'loja-centro' });
    const created = await withdraw(h, { amount: 20 }, { subAccount: 'loja-centro' });
    expect(created.status, created.text).toBe(201);
    expect(created.body.projectId).toBeNull(); // the sub-account has no project
    expect((await balanceOf(h, 'loja-centro')).available).toBe(30);
    expect((await balanceOf(h)).available).toBe(1000);
    expect((await h.v2('GET', `/transactions/${created.body.id}`)).status).toBe(404);
    expect((await h.v2('GET', `/transactions/${created.body.id}`, { subAccount: 'loja-centro' })).status).toBe(200);
    await h.advance(2);
    const [event] = await eventsOf(h, 'withdrawal_completed');
    expect(event.subAccount).toBe('loja-centro');
    expect(event.payload.subAccount).toBe('loja-centro');
  });

  test('an explicit projectId of the wallet is kept; an unknown one is 404 PROJECT_NOT_FOUND and moves nothing', async () => {
    const h = await startHarness();
    const second = await h.v2('POST', '/projects', { body: { name: 'Second', color: '#000000' } });
    expect((await withdraw(h, { amount: 10, projectId: second.body.id })).body.projectId).toBe(second.body.id);
    const before = snapshot(h);
    const res = await withdraw(h, { amount: 10, projectId: '00000000-0000-4000-8000-000000000000' });
    expect(res.status, res.text).toBe(404);
    expect(res.body.details.code).toBe('PROJECT_NOT_FOUND');
    expect(snapshot(h)).toEqual(before);
  });

  test.each([
    ['cpf', VALID_CPF],
    ['cnpj', VALID_CNPJ],
    ['cnpj', VALID_ALNUM_CNPJ],
    ['email', 'ana.souza+pix@example.com.br'],
    ['phone', '+5511987654321'],
    ['phone', '+551133334444'],
    ['random', '123e4567-e89b-42d3-a456-426614174000'],
  ])('accepts a %s PIX key %s', async (pixKeyType, pixKey) => {
    const h = await startHarness();
    const res = await withdraw(h, { amount: 10, pixKey, pixKeyType });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ snapshotPixKey: pixKey, snapshotPixKeyType: pixKeyType });
  });

  test.each([
    ['cnpj', VALID_CNPJ],
    ['cnpj', VALID_ALNUM_CNPJ],
  ])('accepts a holder document of type %s: %s', async (holderDocumentType, holderDocument) => {
    const h = await startHarness();
    const res = await withdraw(h, { amount: 10, holderDocument, holderDocumentType });
    expect(res.status, res.text).toBe(201);
    expect(res.body.snapshotHolderDocument).toBe(holderDocument);
  });

  test('needs WITHDRAWAL:WRITE or FULL_ACCESS', async () => {
    const h = await startHarness();
    const pixOnly = await h.token(DEFAULT.pixOnly.clientId, DEFAULT.pixOnly.clientSecret);
    const denied = await h.api('POST', '/v2/withdrawals', { token: pixOnly, body: { ...HOLDER, amount: 10 } });
    expect(denied.status, denied.text).toBe(403);
    expect(denied.body.details.code).toBe('PERMISSION_DENIED');
    const cred = await h.control('POST', `/accounts/${DEFAULT.accountId}/credentials`, { permissions: ['WITHDRAWAL:WRITE'] });
    const ok = await h.api('POST', '/v2/withdrawals', { token: await h.token(cred.body.clientId, cred.body.clientSecret), body: { ...HOLDER, amount: 10 } });
    expect(ok.status, ok.text).toBe(201);
  });
});

describe('Idempotency-Key and lookups', () => {
  test('a retry with the same key replays the answer and creates one withdrawal; another body is 422', async () => {
    const h = await startHarness();
    const first = await withdraw(h, { amount: 100 }, { key: 'wd-key-0001' });
    const again = await withdraw(h, { amount: 100 }, { key: 'wd-key-0001' });
    expect(again.status, again.text).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await balanceOf(h)).available).toBe(900);
    const other = await withdraw(h, { amount: 99 }, { key: 'wd-key-0001' });
    expect(other.status, other.text).toBe(422);
    expect(other.body.details.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await balanceOf(h)).available).toBe(900);
  });

  test('the same key on POST /v2/pix is another scope', async () => {
    const h = await startHarness();
    expect((await h.v2('POST', '/pix', { body: { amount: 10, description: 'x' }, headers: { 'Idempotency-Key': 'shared-key-01' } })).status).toBe(201);
    expect((await withdraw(h, { amount: 10 }, { key: 'shared-key-01' })).status).toBe(201);
  });

  test('GET /v2/transactions resolves a withdrawal by id, externalReference and Idempotency-Key at every stage', async () => {
    const h = await startHarness();
    const created = await withdraw(h, { amount: 10, externalReference: 'payout-42' }, { key: 'payout-key-42' });
    const id = created.body.id;
    const lookup = async () => Promise.all([id, 'payout-42', 'payout-key-42'].map(async (ref) => (await h.v2('GET', `/transactions/${ref}`)).body));
    for (const tx of await lookup()) expect(tx).toMatchObject({ id, type: 'withdrawal', status: 'pending', amount: 10 });
    await h.control('POST', `/transactions/${id}/process`);
    for (const tx of await lookup()) expect(tx).toMatchObject({ id, status: 'pending' });
    await h.control('POST', `/transactions/${id}/complete`);
    for (const tx of await lookup()) expect(tx).toMatchObject({ id, status: 'completed' });
    await h.control('POST', `/transactions/${id}/reverse`);
    for (const tx of await lookup()) expect(tx).toMatchObject({ id, status: 'failed' });
  });
});

describe('limits', () => {
  test('withdrawalMax applies to the gross amount: equal passes, above is WITHDRAWAL_LIMIT_EXCEEDED', async () => {
    const h = await startHarness();
    await limits(h, { withdrawalMax: 500 });
    expect((await withdraw(h, { amount: 500 })).status).toBe(201);
    expect((await withdraw(h, { netAmount: 499 })).status).toBe(201);
    const before = snapshot(h);
    const res = await withdraw(h, { netAmount: 500 }); // gross 501
    expect(res.status, res.text).toBe(400);
    expect(res.body.details).toMatchObject({ code: 'WITHDRAWAL_LIMIT_EXCEEDED', limit: 'withdrawalMax', max: 500, requested: 501 });
    expect(res.body.message).toContain('501.00 is above the limit per withdrawal of 500.00');
    expect(snapshot(h)).toEqual(before);
  });

  test('dailyWithdrawalMax sums the day in America/Sao_Paulo; failed and reversed withdrawals do not count', async () => {
    const h = await startHarness(); // T0 = 12:00Z = 09:00 in Sao Paulo
    await limits(h, { dailyWithdrawalMax: 300 });
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { automation: { completeAfterSeconds: 0 } });
    const a = await withdraw(h, { amount: 200 });
    expect(a.status).toBe(201);
    const before = snapshot(h);
    const refused = await withdraw(h, { amount: 101 });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.details).toMatchObject({ code: 'WITHDRAWAL_LIMIT_EXCEEDED', limit: 'dailyWithdrawalMax', max: 300, usedToday: 200, requested: 101, day: '2026-03-10' });
    expect(refused.body.message).toContain('Withdraw at most 100.00 more today');
    expect(snapshot(h)).toEqual(before);
    expect((await withdraw(h, { amount: 100 })).status).toBe(201); // exactly the limit
    // A failed one frees its share...
    await h.control('POST', `/transactions/${a.body.id}/fail`);
    const b = await withdraw(h, { amount: 200 });
    expect(b.status, b.text).toBe(201);
    // ...and so does a reversed one.
    await h.control('POST', `/transactions/${b.body.id}/complete`);
    await h.control('POST', `/transactions/${b.body.id}/reverse`);
    expect((await withdraw(h, { amount: 200 })).status).toBe(201);
    expect((await withdraw(h, { amount: 1.01 })).status).toBe(400);
  });

  test('the day turns at midnight in Sao Paulo (03:00 UTC), not at midnight UTC', async () => {
    const h = await startHarness();
    await limits(h, { dailyWithdrawalMax: 100 });
    expect((await withdraw(h, { amount: 100 })).status).toBe(201);
    await h.control('PUT', '/clock', { now: '2026-03-11T02:59:59.000Z', frozen: true }); // 23:59:59 on the 10th in Sao Paulo
    const late = await withdraw(h, { amount: 10 });
    expect(late.status, late.text).toBe(400);
    expect(late.body.details.day).toBe('2026-03-10');
    await h.advance(1); // 00:00:00 on the 11th in Sao Paulo
    expect((await withdraw(h, { amount: 100 })).status).toBe(201);
  });

  test('the daily limit counts per wallet', async () => {
    const h = await startHarness();
    await limits(h, { dailyWithdrawalMax: 100 });
    await h.control('POST', `/accounts/${DEFAULT.accountId}/adjustments`, { amount: 100, subAccount: 'loja-centro' });
    expect((await withdraw(h, { amount: 100 })).status).toBe(201);
    expect((await withdraw(h, { amount: 100 }, { subAccount: 'loja-centro' })).status).toBe(201);
  });

  test('null limits mean no limit', async () => {
    const h = await startHarness();
    await limits(h, { withdrawalMax: 10 });
    await limits(h, { withdrawalMax: null });
    expect((await withdraw(h, { amount: 999 })).status).toBe(201);
  });
});

describe('refusals move nothing', () => {
  const cases: Array<[string, Record<string, unknown>, number, string, Array<{ field: string; message: string | RegExp }> | string]> = [
    ['both amount and netAmount', { amount: 10, netAmount: 9 }, 400, 'VALIDATION_ERROR', [{ field: 'amount', message: 'send exactly one of amount and netAmount, not both' }, { field: 'netAmount', message: 'send exactly one of amount and netAmount, not both' }]],
    ['neither amount nor netAmount', {}, 400, 'VALIDATION_ERROR', [{ field: 'amount', message: /neither was sent/ }, { field: 'netAmount', message: /neither was sent/ }]],
    ['an amount that does not cover the fee', { amount: 1 }, 400, 'VALIDATION_ERROR', [{ field: 'amount', message: 'must be more than the withdrawal fee of 1.00 (the recipient would receive 0.00); send at least 1.01, or send netAmount instead' }]],
    ['an amount below 1', { amount: 0.5 }, 400, 'VALIDATION_ERROR', [{ field: 'amount', message: 'must be at least 1' }]],
    ['a netAmount below 1', { netAmount: 0.99 }, 400, 'VALIDATION_ERROR', [{ field: 'netAmount', message: 'must be at least 1' }]],
    ['an amount with 3 decimals', { amount: 10.005 }, 400, 'VALIDATION_ERROR', [{ field: 'amount', message: 'must have at most 2 decimal places' }]],
    ['a CPF key with a wrong check digit', { amount: 10, pixKeyType: 'cpf', pixKey: '52998224724' }, 400, 'VALIDATION_ERROR', [{ field: 'pixKey', message: /^must be a valid CPF.*\(pixKeyType is cpf\)$/ }]],
    ['a CPF key with punctuation', { amount: 10, pixKeyType: 'cpf', pixKey: '529.982.247-25' }, 400, 'VALIDATION_ERROR', [{ field: 'pixKey', message: /no punctuation/ }]],
    ['a CNPJ key with a wrong check digit', { amount: 10, pixKeyType: 'cnpj', pixKey: '11222333000182' }, 400, 'VALIDATION_ERROR', [{ field: 'pixKey', message: /^must be a valid CNPJ/ }]],
    ['an alphanumeric CNPJ key with a wrong check digit', { amount: 10, pixKeyType: 'cnpj', pixKey: '12ABC34501DE36' }, 400, 'VALIDATION_ERROR', [{ field: 'pixKey', message: /^must be a valid CNPJ/ }]],
    ['a CPF given as a CNPJ key', { amount: 10, pixKeyType: 'cnpj', pixKey: VALID_CPF }, 400, 'VALIDATION_ERROR', [{ field: 'pixKey', message: /^must be a valid CNPJ/ }]],
    ['an email key without a domain', { amount: 10, pixKeyType: 'email', pixKey: 'fulano@' }, 400, 'VALIDATION_ERROR', [{ field: 'pixKey', message: /^must be an email address/ }]],
    ['a phone key without +55', { amount: 10, pixKeyType: 'phone', pixKey: '11987654321' }, 400, 'VALIDATION_ERROR', [{ field: 'pixKey', message: /^must be a phone number as \+55/ }]],
    ['a random key that is not a UUID', { amount: 10, pixKeyType: 'random', pixKey: 'not-a-uuid' }, 400, 'VALIDATION_ERROR', [{ field: 'pixKey', message: /^must be a random key \(EVP\): a UUID/ }]],
    ['an unknown pixKeyType', { amount: 10, pixKeyType: 'iban' }, 400, 'VALIDATION_ERROR', [{ field: 'pixKeyType', message: 'must be one of cpf, cnpj, email, phone, random' }]],
    ['a holder CPF with punctuation', { amount: 10, holderDocument: '529.982.247-25' }, 400, 'VALIDATION_ERROR', [{ field: 'holderDocument', message: /^must be a CPF.*\(holderDocumentType is cpf\)$/ }]],
    ['a holder CPF declared as a CNPJ', { amount: 10, holderDocumentType: 'cnpj' }, 400, 'VALIDATION_ERROR', [{ field: 'holderDocument', message: /^must be a CNPJ.*\(holderDocumentType is cnpj\)$/ }]],
    ['an unknown holderDocumentType', { amount: 10, holderDocumentType: 'rg' }, 400, 'VALIDATION_ERROR', [{ field: 'holderDocumentType', message: "must be 'cpf' or 'cnpj'" }]],
    ['an empty holderName', { amount: 10, holderName: '' }, 400, 'VALIDATION_ERROR', [{ field: 'holderName', message: 'must not be empty' }]],
    ['an externalReference of 256 characters', { amount: 10, externalReference: 'x'.repeat(256) }, 400, 'VALIDATION_ERROR', [{ field: 'externalReference', message: 'must be at most 255 characters' }]],
    ['a gross amount above the available balance', { amount: 1000.01 }, 400, 'INSUFFICIENT_BALANCE', 'The withdrawal needs 1000.01 (net 999.01 + fee 1.00) but the available balance is 1000.00'],
    ['a netAmount whose gross is above the available balance', { netAmount: 1000 }, 400, 'INSUFFICIENT_BALANCE', 'The withdrawal needs 1001.00 (net 1000.00 + fee 1.00)'],
  ];

  test.each(cases)('%s is refused', async (_name, body, status, code, expected) => {
    const h = await startHarness();
    const before = snapshot(h);
    const res = await withdraw(h, body);
    expect(res.status, res.text).toBe(status);
    expect(res.body.details.code, res.text).toBe(code);
    if (typeof expected === 'string') expect(res.body.message).toContain(expected);
    else {
      expect(res.body.details.fields, res.text).toEqual(expected.map((f) => ({ field: f.field, message: typeof f.message === 'string' ? f.message : expect.stringMatching(f.message) })));
      for (const f of expected) expect(res.body.message).toContain(f.field);
    }
    expect(snapshot(h)).toEqual(before);
  });

  test('every failing field is listed at once, cross-field checks included', async () => {
    const h = await startHarness();
    const res = await h.v2('POST', '/withdrawals', { body: { pixKeyType: 'phone', pixKey: '123', holderDocumentType: 'cpf', holderDocument: '1', amount: 10, netAmount: 10 } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.fields.map((f: { field: string }) => f.field).sort()).toEqual(['amount', 'holderDocument', 'holderName', 'netAmount', 'pixKey']);
  });

  test('exactly the available balance can be withdrawn', async () => {
    const h = await startHarness();
    const res = await withdraw(h, { amount: 1000 });
    expect(res.status, res.text).toBe(201);
    expect((await balanceOf(h)).available).toBe(0);
  });

  test('a balance held by a block is not available for withdrawals', async () => {
    const h = await startHarness();
    const charge = await h.v2('POST', '/pix', { body: { amount: 500, description: 'x' } });
    await h.control('POST', `/transactions/${charge.body.id}/pay`);
    await h.control('POST', `/transactions/${charge.body.id}/block`);
    expect(await balanceOf(h)).toMatchObject({ available: brl(1000 - 4.95), held: 500 });
    const res = await withdraw(h, { amount: 1000 });
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.code).toBe('INSUFFICIENT_BALANCE');
  });
});
