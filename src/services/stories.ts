// Stories (sandbox.md 5.1): short scripted flows a presenter plays from the console, or a test suite calls as a
// one-call fixture. A story is a list of steps over the same verbs the API and the control actions call (never field
// writes); the clock moves through the scheduler, so expiries, automation and webhook retries fall due as they would.
// Invariants: each step is its own unit of work (all-or-nothing, and its news reaches the live stream as it
// commits, so a console shows the story step by step); a step that throws stops the story there, and the steps
// before it stay done, as separate API calls would. Nothing is checked in advance that a step's verb checks itself.
import type { Deps } from '../deps';
import { SandboxError, notFound, validationError } from '../domain/errors';
import { CLOCK_RANGE_TEXT, inClockRange } from '../lib/clock';
import { brlText } from '../domain/money';
import { mainWallet } from '../domain/subaccounts';
import type { Account, Transaction } from '../domain/types';
import type { Caller } from '../domain/auth';
import { createCharge, locationPath } from './charges';
import { runAction } from './actions';
import { resolveBlock } from './balance-blocks';
import { createWithdrawal } from './withdrawals';
import { patchAccount, patchInstitution } from './accounts';
import { answerSolicRec, cancelRecByPayer, createRec, createSolicRec } from './recs';
import { createCobR, failCobRDebit, retryCobR } from './cobrs';
import { brtDay, dayOf, dayText } from '../domain/api-pix';
import { debitInstant, receiverAccountsOf } from '../domain/api-pix-rec';
import { nowOf } from './clocks';

export interface StoryStepResult {
  n: number;
  title: string;
  /** What the step did, in a sentence a room can read. */
  did: string;
  /** Sandbox-clock instant (ISO) when the step ended. */
  at: string;
  transactionId?: string;
}

export interface StoryResult {
  story: string;
  title: string;
  accountId: string;
  steps: StoryStepResult[];
  /** Ids a test suite may want: the story's charge, refund, withdrawal, block... */
  ids: Record<string, string>;
}

export interface StoryEnv {
  deps: Deps;
  /** Read afresh on every use: inside a step's unit this is the unit's view, so every write is recorded. */
  readonly account: Account;
  /** Runs what is due now and waits until no webhook attempt is in flight. */
  settle(): Promise<void>;
  /** Real-time pause between steps, so a room can follow (0 in test suites). */
  pauseMs: number;
}

interface Play {
  readonly env: StoryEnv;
  readonly ids: Record<string, string>;
  /** Runs one step in its own unit of work; `fn` answers what it did. */
  step(title: string, fn: () => string | { did: string; transactionId?: string }): Promise<void>;
  /** A step that moves the sandbox clock on by `seconds`, running what falls due on the way. */
  advance(seconds: number, title: string, after: () => string): Promise<void>;
}

export interface Story {
  name: string;
  title: string;
  summary: string;
  steps: string[];
  /** The most this story moves the clock, in seconds, when more than STORY_SPAN_S (a subscription walks months). */
  spanS?: number;
  play(p: Play): Promise<void>;
}

const CUSTOMER = { payerName: 'Maria Silva', payerDocument: '52998224725' };
const RECIPIENT = { holderName: 'Fulano de Tal', holderDocument: '12345678909', holderDocumentType: 'cpf' as const };

const mainCaller = (account: Account): Caller => ({ account, wallet: mainWallet(account), subAccount: null });
const tx = (p: Play, key: string): Transaction => p.env.account.transactions[p.ids[key]!]!;

function charge(p: Play, key: string, amount: number, description: string, extra: { expiresIn?: number; pspCredentialId?: string } = {}) {
  const { tx: t } = createCharge(p.env.deps, mainCaller(p.env.account), { amount, description, expiresIn: extra.expiresIn ?? 3600, ...(extra.pspCredentialId ? { pspCredentialId: extra.pspCredentialId } : {}) });
  p.ids[key] = t.id;
  return { did: `Charge of ${brlText(amount)} created ("${description}"), pending; its checkout page is ${locationPath(t.id)}.`, transactionId: t.id };
}

function pay(p: Play, key: string) {
  const t = runAction(p.env.deps, p.ids[key]!, 'pay', CUSTOMER);
  const paid = t.kind === 'block' ? undefined : t.tx;
  return { did: `${CUSTOMER.payerName} paid it: completed, fee ${brlText(paid?.charge?.feeAmount ?? 0)}, event payment_completed.`, transactionId: p.ids[key] };
}

function deliveriesOf(p: Play, eventName: string, transactionId: string): string {
  const { account } = p.env;
  const event = [...account.events].reverse().find((e) => e.event === eventName && e.body.includes(transactionId));
  if (!event) return `No ${eventName} event was recorded.`;
  const deliveries = Object.values(account.deliveries).filter((d) => d.eventId === event.eventId);
  if (deliveries.length === 0) return `Event ${eventName} recorded; no webhook endpoint of this account has a URL, so nothing was delivered (PATCH /_sandbox/webhooks/{id} {url}).`;
  return deliveries
    .map((d) => {
      const last = d.attempts.at(-1);
      return `Delivery of ${eventName} to ${d.url ?? '(no URL)'}: ${d.state}${last ? ` (attempt ${d.attempts.length}: ${last.statusCode === null ? last.error ?? 'no answer' : `HTTP ${last.statusCode}`})` : ''}.`;
    })
    .join(' ');
}

function withdraw(p: Play, key: string, amount: number, pixKey: string) {
  const t = createWithdrawal(p.env.deps, mainCaller(p.env.account), { pixKey, pixKeyType: 'email', amount, ...RECIPIENT });
  p.ids[key] = t.id;
  return { did: `Withdrawal of ${brlText(amount)} to ${pixKey} (${RECIPIENT.holderName}) created, pending; the gross left the balance.`, transactionId: t.id };
}

export const STORIES: Story[] = [
  {
    name: 'paid-charge',
    title: 'A charge is paid, and its webhook arrives',
    summary: 'A customer pays a PIX charge half a minute after it was made; payment_completed is delivered to every endpoint with a URL.',
    steps: ['Create a charge', 'Half a minute passes', 'The customer pays', 'The webhook is delivered'],
    async play(p) {
      await p.step('Create a charge', () => charge(p, 'charge', 2590, 'Workshop: paid charge'));
      await p.advance(30, 'Half a minute passes', () => 'The clock moved on 30 s; the charge is still pending.');
      await p.step('The customer pays', () => pay(p, 'charge'));
      await p.env.settle();
      await p.step('The webhook is delivered', () => deliveriesOf(p, 'payment_completed', p.ids.charge!));
    },
  },
  {
    name: 'expired-charge',
    title: 'A charge nobody pays expires',
    summary: 'A charge that expires in 5 minutes is left alone; the clock passes its expiry and payment_expired is sent.',
    steps: ['Create a charge that expires in 5 minutes', '5 minutes pass'],
    async play(p) {
      await p.step('Create a charge that expires in 5 minutes', () => charge(p, 'charge', 4500, 'Workshop: nobody pays', { expiresIn: 300 }));
      await p.advance(301, '5 minutes pass', () => `The charge is ${tx(p, 'charge').status} (expired); event payment_expired.`);
    },
  },
  {
    name: 'refund',
    title: 'A payment is refunded',
    summary: 'A paid charge is refunded in full by the merchant (the verb of POST /v2/transactions/{id}/refund); the PSP confirms and refund_completed is sent.',
    steps: ['Create a charge', 'The customer pays', 'The merchant refunds it', 'The PSP confirms the refund'],
    async play(p) {
      await p.step('Create a charge', () => charge(p, 'charge', 8000, 'Workshop: refunded order'));
      await p.step('The customer pays', () => pay(p, 'charge'));
      await p.step('The merchant refunds it', () => {
        const r = runAction(p.env.deps, p.ids.charge!, 'refund', { reason: 'Customer returned the order' });
        const refund = r.kind === 'block' ? undefined : r.tx;
        p.ids.refund = refund!.id;
        return { did: `Refund of ${brlText(refund!.amount)} to ${CUSTOMER.payerName} requested: pending, the amount left the balance.`, transactionId: refund!.id };
      });
      await p.step('The PSP confirms the refund', () => {
        const r = tx(p, 'refund');
        if (r.status === 'pending') runAction(p.env.deps, r.id, 'complete', {});
        const done = tx(p, 'refund');
        return { did: `The refund is ${done.status}${done.refund?.failureReason ? ` (${done.refund.failureReason})` : ''}; event refund_completed, refund fee ${brlText(done.refund?.feeAmount ?? 0)}.`, transactionId: done.id };
      });
    },
  },
  {
    name: 'med-block',
    title: 'A MED block is defended, then rejected',
    summary: "The payer's bank opens a MED (fraud claim) on a paid charge; the merchant defends it and the claim is rejected, so the held money is released.",
    steps: ['Create a charge', 'The customer pays', "The payer's bank opens a MED block", 'The merchant defends it', 'The claim is rejected'],
    async play(p) {
      await p.step('Create a charge', () => charge(p, 'charge', 12000, 'Workshop: disputed order'));
      await p.step('The customer pays', () => pay(p, 'charge'));
      await p.step("The payer's bank opens a MED block", () => {
        const r = runAction(p.env.deps, p.ids.charge!, 'block', { blockType: 'med', reason: 'Payer says it was fraud' });
        if (r.kind !== 'block') throw new Error('block answered no block');
        p.ids.block = r.block.id;
        return { did: `MED block ${r.block.referenceNumber} of ${brlText(r.block.amount)} opened: the amount moved to held; event balance_block_created.`, transactionId: p.ids.charge };
      });
      await p.step('The merchant defends it', () => {
        resolveBlock(p.env.deps, p.ids.block!, 'defend', 'Delivered with tracking code BR123');
        return 'Defence sent with the delivery proof; the block is defended, still held.';
      });
      await p.step('The claim is rejected', () => {
        const { block } = resolveBlock(p.env.deps, p.ids.block!, 'reject', 'Defence accepted');
        return `The block is ${block.status}: ${brlText(block.amount)} is available again; event balance_block_rejected.`;
      });
    },
  },
  {
    name: 'withdrawal-fails',
    title: 'A withdrawal fails',
    summary: 'A withdrawal to a PIX key that does not exist is taken by the PSP and fails; the gross comes back to the balance and withdrawal_failed is sent.',
    steps: ['Request a withdrawal', 'The PSP processes it', 'The key is not found'],
    async play(p) {
      await p.step('Request a withdrawal', () => withdraw(p, 'withdrawal', 2000, 'falha@pix-sandbox.test'));
      await p.step('The PSP processes it', () => {
        runAction(p.env.deps, p.ids.withdrawal!, 'process', {});
        return 'The withdrawal is processing.';
      });
      await p.step('The key is not found', () => {
        runAction(p.env.deps, p.ids.withdrawal!, 'fail', { reason: 'Chave PIX não encontrada' });
        return `The withdrawal failed ("Chave PIX não encontrada"); ${brlText(tx(p, 'withdrawal').amount)} is back in the balance; event withdrawal_failed.`;
      });
    },
  },
  {
    name: 'withdrawal-reversed',
    title: 'A withdrawal completes, then is reversed',
    summary: "A withdrawal completes; a minute later the recipient's bank returns it (account closed) and withdrawal_reversed is sent.",
    steps: ['Request a withdrawal', 'The PSP completes it', 'A minute passes', 'The recipient bank returns it'],
    async play(p) {
      await p.step('Request a withdrawal', () => withdraw(p, 'withdrawal', 3000, 'devolucao@pix-sandbox.test'));
      await p.step('The PSP completes it', () => {
        const w = tx(p, 'withdrawal').withdrawal!;
        if (w.status === 'pending' || w.status === 'processing') runAction(p.env.deps, p.ids.withdrawal!, 'complete', {});
        return 'The withdrawal is completed; event withdrawal_completed.';
      });
      await p.advance(60, 'A minute passes', () => `The clock moved on 60 s; the withdrawal is ${tx(p, 'withdrawal').withdrawal!.status}.`);
      await p.step('The recipient bank returns it', () => {
        if (tx(p, 'withdrawal').withdrawal!.status === 'completed') runAction(p.env.deps, p.ids.withdrawal!, 'reverse', { reason: 'Conta destino encerrada' });
        return `The withdrawal is reversed ("Conta destino encerrada"); ${brlText(tx(p, 'withdrawal').amount)} is back in the balance; event withdrawal_reversed.`;
      });
    },
  },
  {
    name: 'institution-down',
    title: "A charge whose institution is down",
    summary: 'The institution a charge is pinned to goes down: the charge is refused with 503 PSP_UNAVAILABLE and never routed elsewhere; once it is back up, the same charge goes through and is paid.',
    steps: ['The institution goes down', 'A pinned charge is refused', 'The institution is back up', 'The pinned charge goes through', 'The customer pays'],
    async play(p) {
      const { deps, account } = p.env;
      const inst = account.institutions.find((i) => i.enabled) ?? account.institutions[0];
      if (!inst) throw new SandboxError('INVALID_STATE_TRANSITION', `Account ${account.id} has no institution to take down; create an account with institutions (POST /_sandbox/accounts).`, { story: 'institution-down' });
      p.ids.institution = inst.id;
      const hadChoice = account.institutionChoice;
      await p.step('The institution goes down', () => {
        if (!p.env.account.institutionChoice) patchAccount(deps, account.id, { institutionChoice: true });
        patchInstitution(deps, account.id, inst.id, { status: 'down', enabled: true });
        return `${inst.name} is down${hadChoice ? '' : ' (institution choice turned on for this account, so charges can pin it)'}.`;
      });
      await p.step('A pinned charge is refused', () => {
        try {
          charge(p, 'refused', 5000, 'Workshop: pinned charge', { pspCredentialId: inst.id });
        } catch (err) {
          if (err instanceof SandboxError) return `POST /v2/pix with pspCredentialId ${inst.id} answered ${err.status} ${err.code}: ${err.message} Nothing was created.`;
          throw err;
        }
        return 'The charge went through after all (is another step changing this institution?).';
      });
      await p.step('The institution is back up', () => {
        patchInstitution(deps, account.id, inst.id, { status: 'up' });
        return `${inst.name} is up again.`;
      });
      await p.step('The pinned charge goes through', () => charge(p, 'charge', 5000, 'Workshop: pinned charge', { pspCredentialId: inst.id }));
      await p.step('The customer pays', () => pay(p, 'charge'));
    },
  },
  {
    name: 'monthly-subscription',
    title: 'A monthly subscription (Pix Automático)',
    summary: "A receiver's monthly recurrence of the standard API Pix, approved by its payer; three months charged and debited on their due dates (the second month's debit fails and is retried the next day), then the payer cancels it.",
    steps: [
      'The receiver creates a monthly recurrence',
      'It asks the payer to confirm it',
      'The payer accepts',
      'Month 1: the charge is made 5 days ahead',
      'Month 1: debited on its due date',
      'Month 2: the charge is made 5 days ahead',
      "Month 2: the debit fails (the payer's balance)",
      'Month 2: the receiver retries the next day',
      'Month 2: debited on the retry',
      'Month 3: the charge is made 5 days ahead',
      'Month 3: debited on its due date',
      'The payer cancels the subscription',
    ],
    spanS: 130 * 86_400,
    async play(p) {
      const { deps } = p.env;
      const today = () => brtDay(nowOf(deps, p.env.account));
      // The 1st of a month at least 6 days away, and the 1st of each month after it.
      const first = new Date((today() + 6) * 86_400_000);
      const dueOf = (k: number) => dayText(Math.floor(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1 + k, 1) / 86_400_000));
      const moveTo = (instant: number, title: string, after: () => string) => p.advance(Math.max(0, Math.ceil((instant - nowOf(deps, p.env.account)) / 1000)), title, after);
      const cobr = () => p.env.account.cobrs[p.ids.cobr!]!;
      await p.step('The receiver creates a monthly recurrence', () => {
        const rec = createRec(deps, p.env.account, {
          vinculo: { contrato: 'ASSIN-2026', objeto: 'Plano mensal', devedor: { cpf: CUSTOMER.payerDocument, nome: CUSTOMER.payerName } },
          calendario: { dataInicial: dueOf(0), periodicidade: 'MENSAL' },
          valorRec: 2990,
          politicaRetentativa: 'PERMITE_3R_7D',
        });
        p.ids.rec = rec.id;
        return `Recurrence ${rec.id} of ${brlText(2990)} a month from ${dueOf(0)}: CRIADA (POST /api-pix/v2/rec).`;
      });
      await p.step('It asks the payer to confirm it', () => {
        const solic = createSolicRec(deps, p.env.account, {
          idRec: p.ids.rec!,
          dataExpiracaoSolicitacao: new Date(nowOf(deps, p.env.account) + 86_400_000).toISOString(),
          destinatario: { cpf: CUSTOMER.payerDocument, conta: '550689', agencia: '2569', ispbParticipante: '91193552' },
        });
        p.ids.solicrec = solic.id;
        return `Confirmation request ${solic.id} sent to ${CUSTOMER.payerName}'s bank (POST /api-pix/v2/solicrec).`;
      });
      await p.step('The payer accepts', () => {
        answerSolicRec(deps, p.env.account, p.env.account.solicrecs[p.ids.solicrec!]!, true);
        return `${CUSTOMER.payerName} accepted it in their bank app: the recurrence is ${p.env.account.recs[p.ids.rec!]!.status}.`;
      });
      for (const k of [0, 1, 2]) {
        const due = dueOf(k);
        await moveTo(Math.max(nowOf(deps, p.env.account), (dayOf(due) - 5) * 86_400_000 + 15 * 3_600_000), `Month ${k + 1}: the charge is made 5 days ahead`, () => {
          const made = createCobR(deps, p.env.account, undefined, { idRec: p.ids.rec!, dataDeVencimento: due, original: 2990, ajusteDiaUtil: true, recebedor: receiverAccountsOf(p.env.account)[0]!, infoAdicional: `Mensalidade ${due.slice(0, 7)}` });
          p.ids.cobr = made.id;
          p.ids[`cobr${k + 1}`] = made.id;
          return `Recurring charge ${made.id} due ${due}: CRIADA (PUT /api-pix/v2/cobr/{txid}); the payer's PSP schedules the debit.`;
        });
        let day = dayOf(due);
        if (k === 1) {
          await p.env.settle(); // the payer's PSP schedules it (a job due now)
          await p.step("Month 2: the debit fails (the payer's balance)", () => {
            failCobRDebit(deps, p.env.account, cobr());
            return `The scheduled debit failed: attempt ${cobr().tentativas[0]!.status} (${cobr().tentativas[0]!.rejeicao!.descricao}); the cobr stays ${cobr().status}.`;
          });
          await moveTo(debitInstant(dayOf(due)), 'Month 2: the receiver retries the next day', () => {
            day = dayOf(due) + 1;
            retryCobR(deps, p.env.account, p.ids.cobr!, dayText(day));
            return `Retry asked for ${dayText(day)} (POST /api-pix/v2/cobr/{txid}/retentativa/${dayText(day)}), as PERMITE_3R_7D allows.`;
          });
        }
        const title = k === 1 ? 'Month 2: debited on the retry' : `Month ${k + 1}: debited on its due date`;
        await moveTo(debitInstant(day) + 60_000, title, () => {
          const paid = p.env.account.transactions[cobr().transactionId ?? ''];
          return paid ? `Debited at 06:00 (Brasília) on ${dayText(day)}: the cobr is ${cobr().status}, ${brlText(paid.amount)} in the wallet; event payment_completed.` : `The cobr is ${cobr().status}.`;
        });
      }
      await p.step('The payer cancels the subscription', () => {
        cancelRecByPayer(deps, p.env.account, p.env.account.recs[p.ids.rec!]!);
        return `${CUSTOMER.payerName} cancelled it in their bank app: the recurrence is ${p.env.account.recs[p.ids.rec!]!.status} (no more charges).`;
      });
    },
  },
];

export const storyNames = () => STORIES.map((s) => s.name);

export function findStory(name: string): Story {
  const story = STORIES.find((s) => s.name === name);
  if (!story) throw notFound('NOT_FOUND', 'story', name, `Use one of: ${storyNames().join(', ')} (GET /_sandbox/stories).`);
  return story;
}

/** Plays a story on an account, step by step; `onStep` hears of each step as it is done (inside its unit). */
/** The most any story moves the clock: a story starts only where the clock has that much room left. */
const STORY_SPAN_S = 3600;

export async function playStory(env: StoryEnv, story: Story, onStep: (step: StoryStepResult, of: number) => void): Promise<StoryResult> {
  const { deps, account } = env;
  // The clock the account runs on (its own, or the sandbox clock): a story moves nobody else's.
  const clock = deps.clocks.of(account);
  const own = deps.clocks.owns(account.id);
  // Checked before the first step, so a story near the end of the clock's range changes nothing rather than stop halfway.
  const span = Math.max(STORY_SPAN_S, story.spanS ?? 0);
  if (!inClockRange(clock.nowMs() + span * 1000))
    throw validationError([
      { field: 'clock', message: `is ${clock.iso()}: this story moves it up to ${span} s, and the clock stays within ${CLOCK_RANGE_TEXT}; set it earlier (PUT /_sandbox/${own ? `accounts/${account.id}/` : ''}clock)` },
    ]);
  let moved = 0;
  const steps: StoryStepResult[] = [];
  const ids: Record<string, string> = {};
  const pause = () => (env.pauseMs > 0 && steps.length > 0 ? new Promise((r) => setTimeout(r, env.pauseMs)) : Promise.resolve());
  const record = (title: string, out: string | { did: string; transactionId?: string }) => {
    const done: StoryStepResult = { n: steps.length + 1, title, ...(typeof out === 'string' ? { did: out } : out), at: clock.iso() };
    steps.push(done);
    onStep(done, story.steps.length);
  };
  const play: Play = {
    env,
    ids,
    async step(title, fn) {
      await pause();
      await deps.store.atomically('system', () => record(title, fn())).durable;
    },
    async advance(seconds, title, after) {
      moved += seconds;
      if (moved > span) throw new Error(`the story ${story.name} moves the clock more than its span (${span} s)`);
      await pause();
      await deps.scheduler.advance(seconds * 1000, account.id);
      deps.bus.publish({ kind: 'clock', now: clock.iso(), frozen: clock.frozen, ...(own ? { accountId: account.id } : {}) });
      await deps.store.atomically('system', () => record(title, after())).durable;
    },
  };
  await story.play(play);
  return { story: story.name, title: story.title, accountId: account.id, steps, ids };
}
