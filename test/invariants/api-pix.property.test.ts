// Property (sandbox.md 2.8) over the standard API Pix face: random sequences of its operations (cob and cobv created,
// revised, removed, paid, expired by the clock, devoluções asked, whole or partial, completed or failed, bad input
// among them) keep every wallet's balance equal to its ledger, never return more of a Pix than it was, answer no 5xx,
// and leave the whole state as it was when they answer an error.
// PROPERTY_SEED=<seed> replays a run.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { expectLedgerBalanced, startHarness, type ApiResponse } from '../helpers/harness';
import { apiPix, cobBody, KEYS, pixToken } from '../helpers/api-pix';

type Op =
  | { op: 'cob'; n: number; cents: number; bad: boolean }
  | { op: 'cobv'; n: number; cents: number; days: number }
  | { op: 'patch'; n: number; cents: number; remove: boolean }
  | { op: 'pay'; n: number }
  | { op: 'devolucao'; n: number; whole: boolean }
  | { op: 'refundAction'; n: number; action: 'complete' | 'fail' }
  | { op: 'advance'; seconds: number };

const n = fc.integer({ min: 0, max: 3 });
const cents = fc.integer({ min: 1, max: 200_000 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('cob' as const), n, cents, bad: fc.boolean() }),
  fc.record({ op: fc.constant('cobv' as const), n, cents, days: fc.integer({ min: -1, max: 5 }) }),
  fc.record({ op: fc.constant('patch' as const), n, cents, remove: fc.boolean() }),
  fc.record({ op: fc.constant('pay' as const), n }),
  fc.record({ op: fc.constant('devolucao' as const), n, whole: fc.boolean() }),
  fc.record({ op: fc.constant('refundAction' as const), n, action: fc.constantFrom('complete' as const, 'fail' as const) }),
  fc.record({ op: fc.constant('advance' as const), seconds: fc.integer({ min: 1, max: 200_000 }) }),
);

const txid = (i: number) => `proptxid${String(i).padStart(20, '0')}`;
const money = (c: number) => (c / 100).toFixed(2);

test('random sequences of API Pix operations keep the ledger and all-or-nothing', async () => {
  const seed = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : undefined;
  await fc.assert(
    fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 12 }), async (ops) => {
      const h = await startHarness();
      try {
        const refunds: string[] = [];
        let token = await pixToken(h);
        for (const step of ops) {
          const before = JSON.stringify(h.sb.deps.store.state);
          let res: ApiResponse | undefined;
          const kind = () => h.sb.deps.store.state.accounts['11111111-1111-4111-8111-111111111111']!.cobs[txid(step.op === 'advance' ? 0 : step.n)]?.kind ?? 'cob';
          switch (step.op) {
            case 'cob':
              res = await apiPix(h, 'PUT', `/cob/${txid(step.n)}`, { body: cobBody({ valor: { original: step.bad ? String(step.cents) : money(step.cents) } }), token });
              break;
            case 'cobv': {
              const due = new Date(Date.parse(h.sb.deps.clock.iso()) + step.days * 86_400_000 - 3 * 3_600_000).toISOString().slice(0, 10);
              res = await apiPix(h, 'PUT', `/cobv/${txid(step.n)}`, {
                body: { calendario: { dataDeVencimento: due, validadeAposVencimento: 2 }, devedor: { cpf: '12345678909', nome: 'F' }, chave: KEYS.cnpj, valor: { original: money(step.cents), multa: { modalidade: 2, valorPerc: '2.00' }, juros: { modalidade: 2, valorPerc: '1.00' } } },
                token,
              });
              break;
            }
            case 'patch':
              res = await apiPix(h, 'PATCH', `/${kind()}/${txid(step.n)}`, { body: step.remove ? { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } : { valor: { original: money(step.cents) } }, token });
              break;
            case 'pay':
              res = await h.control('POST', `/api-pix/cob/${txid(step.n)}/pay`, {});
              break;
            case 'devolucao': {
              const cob = await apiPix(h, 'GET', `/${kind()}/${txid(step.n)}`, { token });
              const pix = cob.body?.pix?.[0];
              if (!pix) break;
              res = await apiPix(h, 'PUT', `/pix/${pix.endToEndId}/devolucao/D${refunds.length}`, { body: { valor: step.whole ? pix.valor : '0.01' }, token });
              if (res.status === 201) refunds.push(res.headers.get('x-sandbox-transaction-id')!);
              break;
            }
            case 'refundAction':
              if (refunds.length === 0) break;
              res = await h.control('POST', `/transactions/${refunds[step.n % refunds.length]}/${step.action}`, {});
              break;
            case 'advance':
              res = await h.advance(step.seconds);
              token = await pixToken(h);
              break;
          }
          if (res) {
            expect(res.status, `${JSON.stringify(step)}: ${res.text}`).toBeLessThan(500);
            if (res.status >= 400) expect(JSON.stringify(h.sb.deps.store.state), `${JSON.stringify(step)} answered ${res.status} and changed the state`).toBe(before);
          }
          expectLedgerBalanced(h.sb);
          // The devoluções of a Pix that are not failed never return more than it (several may each return a part).
          const txs = Object.values(h.sb.deps.store.state.accounts['11111111-1111-4111-8111-111111111111']!.transactions);
          for (const p of txs.filter((t) => t.type === 'payment')) {
            const returned = txs.filter((t) => t.type === 'refund' && t.relatedTransactionId === p.id && t.status !== 'failed').reduce((sum, t) => sum + t.amount, 0);
            expect(returned, `${JSON.stringify(step)}: payment ${p.id}`).toBeLessThanOrEqual(p.amount);
          }
        }
      } finally {
        await h.sb.close();
      }
    }),
    { numRuns: 25, ...(seed === undefined ? {} : { seed }) },
  );
}, 120_000);
