// Entities as they are stored. Everything is JSON-serializable (the `--data` file holds exactly this), money is
// integer cents, times are epoch milliseconds of the sandbox clock. Wire shapes are made in faces/ and wire/.
import type { CobR, Rec, RecLoc, SolicRec } from './api-pix-rec-records';
import type { Cents, FeeSchedule } from './money';
import type { SandboxEvent } from './events';
import type { HolderDocumentType, PixKeyType } from '../pix';
import type { MagicOutcome } from './magic';

export type Environment = 'sandbox' | 'production';
export const ACCOUNT_STATUSES = ['approved', 'pending', 'pending_documents', 'pending_approval', 'rejected', 'suspended'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];
export type InstitutionStatus = 'up' | 'down' | 'out_of_capacity';

export interface Balances {
  available: Cents;
  held: Cents;
  promotional: Cents;
}
export type Bucket = keyof Balances;

/** A wallet is the main account or one sub-account. `reference` null = main account. */
export interface Wallet {
  id: string;
  reference: string | null;
  balances: Balances;
  updatedAt: number;
}

export interface SubAccount {
  id: string; // equals the wallet id
  reference: string;
  name: string;
  status: AccountStatus;
  createdAt: number;
}

export interface Credential {
  id: string;
  clientId: string;
  clientSecret: string;
  permissions: string[];
  subAccountAccess: boolean;
  createdAt: number;
  /**
   * Bumped by POST /_sandbox/accounts/{id}/credentials/{credentialId}/expire-tokens: a token carries the generation
   * it was issued in, and one of an older generation has expired (services/tokens.ts). Absent: 0.
   */
  tokenGeneration?: number;
}

export interface ApiKey {
  id: string;
  key: string;
  permissions: string[];
  createdAt: number;
}

export interface Project {
  id: string;
  walletId: string;
  name: string;
  color: string;
  description?: string;
  logoUrl?: string;
  createdAt: number;
  updatedAt: number;
}

export interface Institution {
  id: string;
  name: string;
  status: InstitutionStatus;
  enabled: boolean;
}

export interface Limits {
  /** cents; null = no limit */
  withdrawalMax: Cents | null;
  dailyWithdrawalMax: Cents | null;
}

export interface Automation {
  /** Refunds and withdrawals complete by themselves this many seconds after creation; 0 = never. */
  completeAfterSeconds: number;
  /** Charges are paid by themselves this many seconds after creation; null = never. */
  autoPayAfterSeconds: number | null;
  /** Magic values (domain/magic.ts) pick outcomes; false turns them off. Absent in older data files: on. */
  magicValues: boolean;
}

/** One movement of one bucket of one wallet. A wallet's balance is the sum of its entries, always. */
export interface LedgerEntry {
  id: string;
  walletId: string;
  bucket: Bucket;
  amount: Cents; // signed
  transactionId: string;
  at: number;
}

export const TRANSACTION_TYPES = ['payment', 'fee', 'refund', 'chargeback', 'withdrawal', 'adjustment', 'referral_commission', 'internal_transfer'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
export const TRANSACTION_STATUSES = ['pending', 'completed', 'failed', 'cancelled'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export interface Transaction {
  id: string;
  /** The wallet that owns it; for an internal_transfer, the sending wallet. */
  walletId: string;
  /** internal_transfer only: the receiving wallet (it sees the transaction too). */
  counterpartWalletId?: string;
  type: TransactionType;
  status: TransactionStatus;
  paymentMethod: PaymentMethod;
  amount: Cents;
  createdAt: number;
  updatedAt: number;
  description?: string;
  externalReference?: string;
  idempotencyKey?: string;
  customerId?: string;
  projectId?: string;
  metadata?: Record<string, unknown>;
  /** The transaction this one belongs to (a fee or split leg of a payment, a refund of a payment...). */
  relatedTransactionId?: string;
  paidAt?: number;
  e2eId?: string;
  counterpartName?: string;
  counterpartDocument?: string;
  /** Present on PIX charges (type payment created by POST /pix). */
  charge?: ChargeDetails;
  /** Present on refunds (type refund created by POST /transactions/{id}/refund). */
  refund?: RefundDetails;
  /** Present on withdrawals (type withdrawal created by POST /withdrawals): the withdrawal is this transaction. */
  withdrawal?: WithdrawalDetails;
}

/** A refund's PSP status (2.6) follows its transaction: pending = PENDING, completed = CONFIRMED, failed = ERROR. */
export interface RefundDetails {
  pspProvider: string;
  pspRefundTransactionId: string;
  reason?: string;
  /** The refund fee in force at acceptance, reserved until completion debits it as its own `fee` transaction (absent in data saved before that: the fee in force at completion applies). */
  feeAmount?: Cents;
  refundedAt?: number;
  failureReason?: string;
  /** The id a devolução of the standard face was asked under (PUT /pix/{e2eid}/devolucao/{id}). */
  devolucaoId?: string;
}

/**
 * A withdrawal's own lifecycle. `reversed` is shown as `failed` with failureReason "REVERSED" (sandbox.md 2.5); the
 * transaction status mirrors it: pending|processing -> pending, completed -> completed, failed|reversed -> failed.
 */
export type WithdrawalStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'reversed';

export interface WithdrawalDetails {
  status: WithdrawalStatus;
  feeAmount: Cents;
  netAmount: Cents;
  pixKey: string;
  pixKeyType: PixKeyType;
  holderName: string;
  holderDocument: string;
  holderDocumentType: HolderDocumentType;
  failureReason?: string;
  reversalReason?: string;
  pspReference?: string;
  /** When it completed (kept after a reversal). */
  processedAt?: number;
  failedAt?: number;
  reversedAt?: number;
  /** The magic outcome its PIX key chose at creation (domain/magic.ts). */
  magic?: MagicOutcome;
  /** v1: the bank account of the tenant it was sent to. */
  bankAccountId?: string;
}

export const BLOCK_TYPES = ['med', 'judicial', 'administrative'] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];
export const BALANCE_BLOCK_STATUSES = ['awaiting_response', 'defended', 'approved', 'rejected'] as const;
export type BalanceBlockStatus = (typeof BALANCE_BLOCK_STATUSES)[number];

/**
 * A block on a completed payment, held on the originator wallet. Its money moves under a `chargeback` transaction
 * created with the block: pending while open (available -> held), completed when approved (leaves held), cancelled
 * when rejected (held -> available).
 */
export interface BalanceBlock {
  id: string;
  walletId: string;
  /** The blocked payment. */
  transactionId: string;
  chargebackTransactionId: string;
  amount: Cents;
  status: BalanceBlockStatus;
  blockType: BlockType;
  referenceNumber: string;
  reason: string;
  e2eId?: string;
  externalReference?: string;
  createdAt: number;
  updatedAt: number;
  resolutionReason?: string;
  resolvedAt?: number;
}

export interface SplitItem {
  subAccount: string; // reference or 'principal'
  amount: Cents;
}

export interface ChargeDetails {
  pixCopyPaste: string;
  expiresAt: number;
  pspCredentialId?: string;
  pspPaymentId?: string;
  split?: SplitItem[];
  /** What settlement actually distributed (may be less than `split` when the fee changed). */
  appliedSplit?: SplitItem[];
  feeAmount?: Cents;
  /** How it ended when not completed: 'expired' (cancelled by expiry), 'cancelled', 'failed'. */
  endReason?: string;
  /** The magic outcome its customer.document chose at creation (domain/magic.ts). */
  magic?: MagicOutcome;
  /** The payment link this charge pays (its payment raises the link's counters). */
  paymentLinkId?: string;
  /** The static QR code this payment was made with. */
  staticQrId?: string;
  /**
   * A charge made through the standard API Pix face: its txid and PIX key (account.cobs[txid] holds the rest), or the
   * debit of a recurring charge: the cobr's txid and its recurrence's idRec (account.cobrs[txid]), with no key.
   */
  apiPix?: { txid: string; chave?: string; idRec?: string; infoPagador?: string };
  /** A cobv: what it costs depends on the day it is paid (domain/api-pix.ts dueAmounts); `amount` is the original. */
  due?: DueRules;
}

/** A PIX key of the account (sandbox.md 9): charges of the standard face name one as `chave`. */
export interface PixKey {
  key: string;
  type: PixKeyType;
  createdAt: number;
}

/** A cob or cobv of the standard face: a core charge (transactionId) plus what the standard adds. Keyed by txid. */
export interface Cob {
  id: string; // the txid
  kind: 'cob' | 'cobv';
  transactionId: string;
  revisao: number;
  createdAt: number;
  chave: string;
  /** cob: seconds from creation; absent for a cobv (its calendar is in the transaction's charge.due). */
  expiracao?: number;
  devedor?: Record<string, string>;
  recebedor?: Record<string, string>;
  solicitacaoPagador?: string;
  infoAdicionais?: Array<{ nome: string; valor: string }>;
  modalidadeAlteracao?: number;
  /** The payload location it is bound to; absent once DELETE /loc/{id}/txid unbound it. */
  locId?: number;
}

/**
 * A batch of cobv (PUT/PATCH /lotecobv/{id}): its requests, each processed on its own on the sandbox clock
 * (services/lotes-cobv.ts). Keyed by String(id); the charges it makes are ordinary cobv in account.cobs.
 */
export interface LoteCobV {
  id: string; // String(numeric id), as the client chose it
  numericId: number;
  descricao: string;
  createdAt: number;
  /** One per charge, in the order of the request that created the batch (the same txids for its life). */
  cobsv: LoteCobVItem[];
}

export type LoteCobVItemStatus = 'EM_PROCESSAMENTO' | 'CRIADA' | 'NEGADA';

export interface LoteCobVItem {
  txid: string;
  status: LoteCobVItemStatus;
  /** When the batch created the charge (absent until it did). */
  criacao?: number;
  /** The request waiting to be processed: a whole charge (PUT) or a revision (PATCH). Gone once processed. */
  pending?: { whole: boolean; input: Record<string, unknown> };
  /** Why the last request was refused (NEGADA): the error the verb threw, as the face turns it into a Problema. */
  refusal?: { code: string; message: string; details: Record<string, unknown> };
}

/** A payload location (POST /loc, or made with a cob): the URL a dynamic BR Code carries. Keyed by String(id). */
export interface PayloadLoc {
  id: string; // String(numeric id)
  numericId: number;
  tipoCob: 'cob' | 'cobv';
  /** The pixUrlAccessToken: the last segment of the location. */
  token: string;
  createdAt: number;
  txid?: string;
}

export interface Account {
  id: string;
  name: string;
  environment: Environment;
  status: AccountStatus;
  createdAt: number;
  /** City printed in BR Codes (field 60). */
  city: string;
  institutionChoice: boolean;
  /** Unknown request fields are a 400 for this tenant, not a warning (sandbox.md 14); absent: as --strict says. */
  strict?: boolean;
  fees: FeeSchedule;
  limits: Limits;
  automation: Automation;
  /** Seconds of sandbox clock between webhook attempts (first retry first). */
  webhookRetrySchedule: number[];
  wallets: Record<string, Wallet>;
  subAccounts: SubAccount[];
  credentials: Credential[];
  apiKeys: ApiKey[];
  projects: Project[];
  institutions: Institution[];
  transactions: Record<string, Transaction>;
  ledger: LedgerEntry[];
  idempotency: Record<string, IdempotencyEntry>;
  webhooks: WebhookEndpoint[];
  events: SandboxEvent[];
  /** One per event and endpoint (and per replay), by id (= X-Service-Webhook-ID), oldest first. */
  deliveries: Record<string, Delivery>;
  customers: Customer[];
  balanceBlocks: Record<string, BalanceBlock>;
  /** Payment links (v1 /charges, sandbox.md 12), by id. */
  paymentLinks: Record<string, PaymentLink>;
  /** Static QR codes (v1 /pix/qrcode-static), by id. */
  staticQrs: Record<string, StaticQr>;
  /** Bank accounts a v1 withdrawal may name by bankAccountId (set through the control API). */
  bankAccounts: BankAccount[];
  /** The vendor word of the webhook header names for this tenant (X-{word}-Event...); absent: the sandbox's. */
  webhookHeaderWord?: string;
  /** The tenant's company as GET /v1/account shows it; absent: null. */
  company?: Company;
  /** The standard face (sandbox.md 9); absent in data files written before it (store/state.ts upgrades them). The first key is also the one static QR codes carry. */
  pixKeys: PixKey[];
  cobs: Record<string, Cob>;
  locs: Record<string, PayloadLoc>;
  /** Batches of cobv (lotecobv), by String(id); absent in data files written before them (store/state.ts upgrades them). */
  lotesCobV: Record<string, LoteCobV>;
  /** Pix Automático (sandbox.md 15): recurrences by idRec, their locations, confirmation requests and recurring charges. */
  recs: Record<string, Rec>;
  locrecs: Record<string, RecLoc>;
  solicrecs: Record<string, SolicRec>;
  cobrs: Record<string, CobR>;
  /**
   * The tenant's own clock (sandbox.md 4.6): real time plus offsetMs, or frozenAt when frozen (services/clocks.ts);
   * absent: the tenant runs on the sandbox clock.
   */
  clock?: { offsetMs: number; frozenAt: number | null };
  /** Made from the fixtures (the default world): retention never deletes it (services/retention.ts). */
  fixture?: true;
  /** This tenant's own --retain: deleted once no request has touched it for this many ms of its clock; absent: the sandbox's. */
  retainMs?: number;
  /** When a request last touched it (ms on its clock), as the retention sweep last saved it; absent: never saved. */
  touchedAt?: number;
}

export const PAYMENT_LINK_STATUSES = ['active', 'expired', 'disabled', 'paid'] as const;
export type PaymentLinkStatus = (typeof PAYMENT_LINK_STATUSES)[number];
export const PAYMENT_METHODS = ['pix', 'credit_card', 'boleto'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/**
 * A payment link (the SDKs' "charge"): a page that takes payments. Each payment is an ordinary `payment` transaction
 * of the core, made for the link and carrying its id (metadata.paymentLinkId and charge.paymentLinkId).
 */
export interface PaymentLink {
  id: string;
  walletId: string;
  projectId: string;
  customerId?: string;
  name: string;
  description?: string;
  amount: Cents;
  status: PaymentLinkStatus;
  slug: string;
  paymentMethods: PaymentMethod[];
  maxInstallments?: number;
  notifications: string[];
  allowCoupons: boolean;
  expiresAt?: number;
  paymentsCount: number;
  totalCollected: Cents;
  createdAt: number;
  updatedAt: number;
}

/** A static BR Code of the account's PIX key: paid any number of times until it expires, each payment its own transaction. */
export interface StaticQr {
  id: string;
  walletId: string;
  projectId?: string;
  amount: Cents;
  description: string;
  pixCopyPaste: string;
  externalReference?: string;
  metadata?: Record<string, unknown>;
  expiresAt: number;
  createdAt: number;
  paymentsCount: number;
}

/** The tenant's company (GET /v1/account). */
export interface Company {
  razaoSocial: string;
  nomeFantasia?: string;
  cnpj: string;
  email: string;
  phone: string;
  status: 'pending' | 'active' | 'suspended' | 'blocked';
}

export interface BankAccount {
  id: string;
  bank: string;
  agency: string;
  account: string;
  holderName: string;
  holderDocument: string;
}

export interface Customer {
  id: string;
  name?: string;
  document?: string;
  email?: string;
  phone?: string;
  createdAt: number;
  updatedAt: number;
}

export interface WebhookEndpoint {
  id: string;
  url: string | null;
  /** Reference of the sub-account whose events it receives; null = the main account (and sub-accounts without their own). */
  subAccount: string | null;
  secret: string;
  /** Event kinds it receives; empty = all. */
  events: string[];
  createdAt: number;
  /** A webhook of the standard face (PUT /webhook/{chave}): it receives only the `pix` notices of this key, unsigned, at {url}/pix. */
  chave?: string;
}

export type DeliveryState = 'pending' | 'succeeded' | 'failed';

/** One try at POSTing a delivery. `at` is sandbox-clock ms; `durationMs` is real time (the receiver's speed). */
export interface DeliveryAttempt {
  at: number;
  /** The receiver's HTTP status; null when no response came (connection error, time-out). */
  statusCode: number | null;
  durationMs: number;
  /** Why the attempt failed; null when it succeeded. */
  error: string | null;
  /** The first 2 KB of the receiver's answer, for the delivery log. */
  responseBody?: string;
  /** The headers sent (the body is the event's, the same for every attempt); absent when no request was made. */
  requestHeaders?: Record<string, string>;
}

/** One event sent to one endpoint. Its id is the X-Service-Webhook-ID of every attempt; the body is the event's. */
export interface Delivery {
  id: string;
  /** SandboxEvent.id of the event it carries. */
  eventRecordId: string;
  event: SandboxEvent['event'];
  eventId: string;
  subAccount: string | null;
  endpointId: string;
  /** URL of the latest attempt (the endpoint's URL is read at each attempt, so a PATCHed URL applies to retries). */
  url: string | null;
  state: DeliveryState;
  createdAt: number;
  /** When the next attempt is due (while an attempt waits for its answer, its own time; its outcome sets the retry's); null once none is left. */
  nextAttemptAt: number | null;
  attempts: DeliveryAttempt[];
  /** The delivery this one replays. */
  replayOf?: string;
}

export interface IdempotencyEntry {
  key: string;
  fingerprint: string;
  status: number;
  body: string;
  createdAt: number;
}

/** A stored cobv's value rules, as the request gave them (percentages and amounts kept as the standard's strings). */
export interface DueRules {
  /** YYYY-MM-DD. */
  dataDeVencimento: string;
  validadeAposVencimento: number;
  original: Cents;
  multa?: { modalidade: number; valorPerc: string };
  juros?: { modalidade: number; valorPerc: string };
  abatimento?: { modalidade: number; valorPerc: string };
  desconto?: { modalidade: number; valorPerc?: string; descontoDataFixa?: Array<{ data: string; valorPerc: string }> };
}
