// Refund, withdrawal and balance-block events reach a real receiver signed, with the body recorded for the event.
import { describe, expect, test } from 'vitest';
import { DEFAULT } from '../helpers/harness';
import { act, hmac, newCharge, withReceiver } from '../helpers/webhooks';
import type { Harness } from '../helpers/harness';
import type { Receiver } from '../helpers/receiver';

const withdrawal = { amount: 100, pixKey: 'fulano@example.com', pixKeyType: 'email', holderName: 'Fulano de Tal', holderDocument: '52998224725', holderDocumentType: 'cpf' };

/** Waits for the next delivery and checks it against the recorded event: headers, signature, exact bytes. */
async function expectDelivered(h: Harness, receiver: Receiver, event: string) {
  const r = await receiver.next();
  expect(r.headers['x-service-event']).toBe(event);
  expect(r.headers['x-service-signature']).toBe(hmac(DEFAULT.webhookSecret, r.raw));
  const recorded = h.sb.deps.store.account(DEFAULT.accountId).events.find((e) => e.eventId === r.body.eventId)!;
  expect(recorded.event).toBe(event);
  expect(r.raw.toString('utf8')).toBe(recorded.body);
  return r.body;
}

describe('money events over webhooks', () => {
  test('refund_completed is delivered signed once the refund completes', async () => {
    const { h, receiver } = await withReceiver();
    const id = await newCharge(h);
    await act(h, id, 'pay');
    await expectDelivered(h, receiver, 'payment_completed');
    const refund = await h.v2('POST', `/transactions/${id}/refund`, { body: { reason: 'desistiu' } });
    expect(refund.status, refund.text).toBe(201);
    await h.advance(2);
    const body = await expectDelivered(h, receiver, 'refund_completed');
    expect(body.data).toMatchObject({ originalTransactionId: id, amount: 100, feeAmount: 0.5, netAmount: 100, status: 'completed' });
  });

  test('withdrawal_completed, withdrawal_reversed and withdrawal_failed are delivered signed', async () => {
    const { h, receiver } = await withReceiver();
    const first = await h.v2('POST', '/withdrawals', { body: withdrawal });
    expect(first.status, first.text).toBe(201);
    await h.advance(2);
    expect((await expectDelivered(h, receiver, 'withdrawal_completed')).data).toMatchObject({ withdrawalId: first.body.id, status: 'completed' });
    await act(h, first.body.id, 'reverse');
    expect((await expectDelivered(h, receiver, 'withdrawal_reversed')).data).toMatchObject({ withdrawalId: first.body.id, status: 'reversed', failureReason: 'REVERSED' });
    const second = await h.v2('POST', '/withdrawals', { body: { ...withdrawal, amount: 10 } });
    await act(h, second.body.id, 'fail');
    expect((await expectDelivered(h, receiver, 'withdrawal_failed')).data).toMatchObject({ withdrawalId: second.body.id, status: 'failed' });
  });

  test('balance_block_created, _approved and _rejected are delivered signed', async () => {
    const { h, receiver } = await withReceiver();
    for (const [resolution, status] of [['approve', 'approved'], ['reject', 'rejected']] as const) {
      const id = await newCharge(h);
      await act(h, id, 'pay');
      await expectDelivered(h, receiver, 'payment_completed');
      const block = await act(h, id, 'block');
      expect((await expectDelivered(h, receiver, 'balance_block_created')).data).toMatchObject({ blockId: block.id, transactionId: id, status: 'awaiting_response' });
      const res = await h.control('POST', `/balance-blocks/${block.id}/${resolution}`, { reason: 'decided' });
      expect(res.status, res.text).toBe(200);
      expect((await expectDelivered(h, receiver, `balance_block_${status}`)).data).toMatchObject({ blockId: block.id, status, resolutionReason: 'decided' });
    }
  });
});
