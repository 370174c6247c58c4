// The magic values of sandbox.md 4.11: what a tester types into the app under test to choose an outcome with no
// control call. Data only, in one place: the behaviour reads it, and /pay shows it as a table. The CPFs have valid
// check digits. Times are seconds of sandbox clock. On by default; the account's automation.magicValues: false turns
// them off.

export type MagicWhere = 'charge.customer.document' | 'withdrawal.pixKey' | 'rec.vinculo.devedor';

export type MagicOutcome =
  | 'charge_paid'
  | 'charge_expired'
  | 'charge_failed'
  | 'charge_paid_then_med_block'
  | 'charge_paid_refund_error'
  | 'withdrawal_failed'
  | 'withdrawal_reversed'
  | 'withdrawal_stays_processing'
  | 'rec_accepted'
  | 'rec_rejected'
  | 'rec_no_funds';

export interface MagicValue {
  where: MagicWhere;
  /** Values that trigger it (a withdrawal's PIX key may be an email key or a cpf key). */
  values: readonly string[];
  outcome: MagicOutcome;
  /** What happens, in the words of sandbox.md 4.11. */
  description: string;
}

export const MAGIC_DELAY_SECONDS = 5;
export const MAGIC_FOLLOW_UP_SECONDS = 60;

export const MAGIC_VALUES: readonly MagicValue[] = [
  { where: 'charge.customer.document', values: ['00000000191'], outcome: 'charge_paid', description: 'Paid 5 s after creation (the payer is that customer).' },
  { where: 'charge.customer.document', values: ['00000000272'], outcome: 'charge_expired', description: 'Expires 5 s after creation (payment_expired).' },
  { where: 'charge.customer.document', values: ['00000000353'], outcome: 'charge_failed', description: 'Failed 5 s after creation (no event).' },
  {
    where: 'charge.customer.document',
    values: ['00000000434'],
    outcome: 'charge_paid_then_med_block',
    description: 'Paid after 5 s; a med balance block of the full amount opens 60 s after payment.',
  },
  { where: 'charge.customer.document', values: ['00000000515'], outcome: 'charge_paid_refund_error', description: 'Paid after 5 s; any refund of it ends ERROR and is credited back.' },
  {
    where: 'withdrawal.pixKey',
    values: ['falha@pix-sandbox.test', '00000000353'],
    outcome: 'withdrawal_failed',
    description: 'Fails when processed: failureReason "Chave PIX não encontrada", withdrawal_failed.',
  },
  {
    where: 'withdrawal.pixKey',
    values: ['devolucao@pix-sandbox.test', '00000000272'],
    outcome: 'withdrawal_reversed',
    description: 'Completes, then is reversed 60 s later ("Conta destino encerrada").',
  },
  {
    where: 'withdrawal.pixKey',
    values: ['lento@pix-sandbox.test', '00000000434'],
    outcome: 'withdrawal_stays_processing',
    description: 'Goes to processing and stays there until a control action.',
  },
  { where: 'rec.vinculo.devedor', values: ['00000000604'], outcome: 'rec_accepted', description: 'The payer accepts the confirmation request of the recurrence 5 s after receiving it (APROVADA).' },
  { where: 'rec.vinculo.devedor', values: ['00000000787'], outcome: 'rec_rejected', description: 'The payer rejects the confirmation request of the recurrence 5 s after receiving it (REJEITADA).' },
  {
    where: 'rec.vinculo.devedor',
    values: ['00000000868'],
    outcome: 'rec_no_funds',
    description: 'The payer accepts after 5 s, but has no funds: every debit of its recurring charges fails (tentativa REJEITADA; retried as the policy allows).',
  },
];

/** The magic value `value` triggers at `where`, if any. */
export function magicFor(where: MagicWhere, value: string | undefined): MagicValue | undefined {
  if (value === undefined) return undefined;
  return MAGIC_VALUES.find((m) => m.where === where && m.values.includes(value));
}
