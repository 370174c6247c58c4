// Every (state, action) pair of the withdrawal, refund and balance-block state machines: the legal moves and what they
// do to the balance, and a 409 INVALID_STATE_TRANSITION naming the state, with nothing moved, for every other pair.
import { describe, expect, test } from 'vitest';
import { ACTION_NAMES } from '../../src/services/actions';
import { DEFAULT, expectLedgerBalanced, startHarness, type Harness } from '../helpers/harness';
import { balanceOf, brl, paidCharge, refundIdOf, snapshot, VALID_CPF } from '../helpers/money';

const act = (h: Harness, id: string, action: string) => h.control('POST', `/transactions/${id}/${action}`);

describe('withdrawal state machine', () => {
  type State = 'pending' | 'processing' | 'completed' | 'failed' | 'reversed';
  const reach: Record<State, string[]> = {
    pending: [],
    processing: ['process'],
    completed: ['complete'],
    failed: ['fail'],
    reversed: ['complete', 'reverse'],
  };
  // The legal moves: action -> [status shown by the API, failureReason]. Every other action is refused.
  const legal: Record<State, Partial<Record<(typeof ACTION_NAMES)[number], [string, string | null]>>> = {
    pending: { process: ['processing', null], complete: ['completed', null], fail: ['failed', 'REJECTED'] },
    processing: { complete: ['completed', null], fail: ['failed', 'REJECTED'] },
    completed: { reverse: ['failed', 'REVERSED'] },
    failed: {},
    reversed: {},
  };
  const pairs = (Object.keys(reach) as State[]).flatMap((state) => ACTION_NAMES.map((action) => [state, action] as const));

  test.each(pairs)('a %s withdrawal, action %s', async (state, action) => {
    const h = await startHarness();
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { automation: { completeAfterSeconds: 0 } });
    const created = await h.v2('POST', '/withdrawals', { body: { pixKey: VALID_CPF, pixKeyType: 'cpf', holderName: 'Ana', holderDocument: VALID_CPF, holderDocumentType: 'cpf', amount: 100 } });
    const id = created.body.id;
    for (const step of reach[state]) expect((await act(h, id, step)).status).toBe(200);
    const before = snapshot(h);
    const res = await act(h, id, action);
    const move = legal[state][action];
    if (move) {
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ id, status: move[0], failureReason: move[1] });
      // The gross is out while the withdrawal stands, back once it failed or was reversed.
      expect((await balanceOf(h)).available).toBe(move[0] === 'failed' ? 1000 : 900);
    } else {
      expect(res.status, res.text).toBe(409);
      expect(res.body.details.code).toBe('INVALID_STATE_TRANSITION');
      expect(res.body.message).toContain(`withdrawal`);
      expect(res.body.message).toContain(state);
      expect(snapshot(h)).toEqual(before);
    }
    expectLedgerBalanced(h.sb);
  });
});

describe('refund state machine', () => {
  type State = 'pending' | 'completed' | 'failed';
  const reach: Record<State, string[]> = { pending: [], completed: ['complete'], failed: ['fail'] };
  const legal: Record<State, Partial<Record<(typeof ACTION_NAMES)[number], string>>> = {
    pending: { complete: 'completed', fail: 'failed' },
    completed: {},
    failed: {},
  };
  const pairs = (Object.keys(reach) as State[]).flatMap((state) => ACTION_NAMES.map((action) => [state, action] as const));
  const AFTER_PAYMENT = brl(1000 + 100 - 0.99);
  const availableAfter: Record<string, number> = { pending: brl(AFTER_PAYMENT - 100), completed: brl(AFTER_PAYMENT - 100 - 0.5), failed: AFTER_PAYMENT };

  test.each(pairs)('a %s refund, action %s', async (state, action) => {
    const h = await startHarness();
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { automation: { completeAfterSeconds: 0 } });
    const id = refundIdOf(await h.v2('POST', `/transactions/${await paidCharge(h)}/refund`, { body: {} }));
    for (const step of reach[state]) expect((await act(h, id, step)).status).toBe(200);
    const before = snapshot(h);
    const res = await act(h, id, action);
    const to = legal[state][action];
    if (to) {
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ id, type: 'refund', status: to });
      expect((await balanceOf(h)).available).toBe(availableAfter[to]);
    } else {
      expect(res.status, res.text).toBe(409);
      expect(res.body.details.code).toBe('INVALID_STATE_TRANSITION');
      expect(res.body.message).toContain('refund');
      expect(res.body.message).toContain(state);
      expect(snapshot(h)).toEqual(before);
    }
    expectLedgerBalanced(h.sb);
  });
});

describe('balance block state machine', () => {
  type State = 'awaiting_response' | 'defended' | 'approved' | 'rejected';
  const reach: Record<State, string[]> = { awaiting_response: [], defended: ['defend'], approved: ['approve'], rejected: ['reject'] };
  const legal: Record<State, Partial<Record<'defend' | 'approve' | 'reject', State>>> = {
    awaiting_response: { defend: 'defended', approve: 'approved', reject: 'rejected' },
    defended: { approve: 'approved', reject: 'rejected' },
    approved: {},
    rejected: {},
  };
  const AFTER_PAYMENT = brl(1000 + 100 - 0.99);
  // What each status leaves on the originator wallet: [available, held].
  const money: Record<State, [number, number]> = {
    awaiting_response: [brl(AFTER_PAYMENT - 100), 100],
    defended: [brl(AFTER_PAYMENT - 100), 100],
    approved: [brl(AFTER_PAYMENT - 100), 0],
    rejected: [AFTER_PAYMENT, 0],
  };
  const pairs = (Object.keys(reach) as State[]).flatMap((state) => (['defend', 'approve', 'reject'] as const).map((action) => [state, action] as const));

  test.each(pairs)('a %s block, action %s', async (state, action) => {
    const h = await startHarness();
    const opened = await h.control('POST', `/transactions/${await paidCharge(h)}/block`);
    const id = opened.body.id;
    for (const step of reach[state]) expect((await h.control('POST', `/balance-blocks/${id}/${step}`)).status).toBe(200);
    const before = snapshot(h);
    const res = await h.control('POST', `/balance-blocks/${id}/${action}`);
    const to = legal[state][action];
    if (to) {
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ id, status: to });
      const { available, held } = await balanceOf(h);
      expect([available, held]).toEqual(money[to]);
    } else {
      expect(res.status, res.text).toBe(409);
      expect(res.body.details).toMatchObject({ code: 'INVALID_STATE_TRANSITION', from: state, action });
      const article = state === 'defended' || state === 'rejected' ? 'a' : 'an';
      expect(res.body.message).toBe(`Cannot ${action} a balance block that is ${state}: ${article} ${state} balance block ${state === 'defended' ? 'can only become approved or rejected' : 'is final'}.`);
      expect(snapshot(h)).toEqual(before);
    }
    expectLedgerBalanced(h.sb);
  });
});
