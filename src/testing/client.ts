// A typed client for every /_sandbox route (sandbox.md 4), over HTTP, for a sandbox in this process or another one.
// Request types come from the control API's own zod schemas (z.input: what a caller sends) where they are exported,
// response types from the views that shape the answers, so the client cannot drift from the routes.
import type { Permission } from '../domain/permissions';
import type { Story, StoryResult } from '../services/stories';
import type { AccountStatus } from '../domain/types';
import type { EventKind } from '../domain/events';
import type { RequestView } from '../wire/request-view';
import type {
  accountDetailView,
  balanceBlockControlView,
  credentialView,
  deliveryView,
  institutionView,
  paymentLinkView,
  refundResultView,
  subAccountView,
  transactionView,
  webhookView,
  withdrawalView,
} from '../wire/views';

import type { AccountPatch, AccountSpec, CredentialSpec, SubAccountSpec, WebhookPatch, WebhookSpec, WithdrawalInput } from './specs';
export type { AccountPatch, AccountSpec, AutomationSpec, BankAccountSpec, CompanySpec, CredentialSpec, FeesSpec, LimitsSpec, SubAccountSpec, WebhookPatch, WebhookSpec, WithdrawalInput } from './specs';
export type StoryInfo = Pick<Story, 'name' | 'title' | 'summary' | 'steps'>;
export type { StoryResult } from '../services/stories';

export type Account = ReturnType<typeof accountDetailView>;
export type Credential = ReturnType<typeof credentialView>;
export type SubAccount = ReturnType<typeof subAccountView>;
export type Institution = ReturnType<typeof institutionView>;
export type WebhookEndpoint = ReturnType<typeof webhookView>;
export type Delivery = ReturnType<typeof deliveryView>;
export type Transaction = ReturnType<typeof transactionView>;
export type Withdrawal = ReturnType<typeof withdrawalView>;
export type RefundTransaction = Transaction & { refund: ReturnType<typeof refundResultView> };
export type BalanceBlock = ReturnType<typeof balanceBlockControlView>;
/** A payment link (v1 /charges, sandbox.md 12). */
export type PaymentLink = ReturnType<typeof paymentLinkView>;
export interface PayLinkBody extends PayBody {
  /** Default: the link's first method. */
  paymentMethod?: 'pix' | 'credit_card' | 'boleto';
}

export interface AccountSummary {
  id: string;
  name: string;
  environment: 'sandbox' | 'production';
  status: AccountStatus;
  subAccounts: number;
  balance: number;
}
export interface SandboxEventRecord {
  id: string;
  event: EventKind;
  eventId: string;
  subAccount: string | null;
  createdAt: string;
  /** The envelope each delivery sends, parsed. */
  payload: { event: EventKind; eventId: string; timestamp: string; subAccount: string | null; data: Record<string, unknown> };
}
export interface List<T> {
  items: T[];
  total?: number;
}
export interface Clock {
  now: string;
  frozen: boolean;
  /** On a tenant's clock (clock.of(accountId)): whether it has a clock of its own, or runs on the sandbox clock. */
  own?: boolean;
}

/** A clock's controls: the sandbox clock's (control.clock), or a tenant's (control.clock.of(accountId)). */
export interface ClockControls {
  get(): Promise<Clock>;
  /** Jump to an instant (ISO string, epoch ms or Date); forward runs what falls due on the way. */
  set(now: string | number | Date, opts?: { frozen?: boolean }): Promise<Clock>;
  /** Moves the clock on by `seconds`, running expiries, automation and webhook retries in time order. */
  advance(seconds: number): Promise<Clock>;
  /** Stops the clock (at `at` when given, else where it is). */
  freeze(at?: string | number | Date): Promise<Clock>;
  unfreeze(): Promise<Clock>;
  /** Back to real time, running. */
  realTime(): Promise<Clock>;
}
export interface Health {
  status: 'ok';
  version: string;
  now: string;
  frozen: boolean;
  uptimeSeconds: number;
  accounts: number;
  persistent: boolean;
  pendingJobs: number;
  rssBytes: number;
  /** The heap limit the default budget is reckoned from (Node's default, or NODE_OPTIONS=--max-old-space-size). */
  heapLimitBytes: number;
  /** Records held (stored transactions), against maxRecords; storageFull: creates answer 507 STORAGE_FULL. */
  records: number;
  /** When the oldest record held was made; null when none is held. */
  oldestRecordAt: string | null;
  maxRecords: number;
  /** What the records held weigh, against maxBytes (the budget; maxRecords is it in records of 2048 bytes). */
  bytesHeld: number;
  maxBytes: number;
  storageFull: boolean;
  /** When storageFull: why the records are read but not grown, where the limit comes from and what raises it. */
  storageNote: string | null;
}
export interface FaultRule {
  method?: string;
  path: string;
  status?: number;
  latencyMs?: number;
  rate?: number;
  times?: number;
}
export interface CredentialPatch {
  permissions?: Permission[];
  subAccountAccess?: boolean;
}
export interface SubAccountPatch {
  status?: AccountStatus;
  name?: string;
}
export interface InstitutionPatch {
  status?: 'up' | 'down' | 'out_of_capacity';
  enabled?: boolean;
  name?: string;
}
export interface Adjustment {
  /** BRL: positive credits the wallet, negative debits it. */
  amount: number;
  /** Sub-account reference; absent or null = the main wallet. */
  subAccount?: string | null;
  description?: string;
}
export interface AdjustmentResult {
  id: string;
  type: string;
  status: string;
  amount: number;
  description: string | null;
  createdAt: string;
}
export interface PayBody {
  payerName?: string;
  payerDocument?: string;
}
export interface BlockBody {
  /** BRL; default the whole payment. */
  amount?: number;
  blockType?: 'med' | 'judicial' | 'administrative';
  reason?: string;
}
export interface EventQuery {
  event?: EventKind;
  subAccount?: string;
}
/** Filters of the request log (docs/requests.md): each optional. */
export interface RequestQuery {
  /** A status (`201`), a class (`4xx`) or `failed` (400 and up). */
  status?: string | number;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A path prefix, like /v2/pix. */
  path?: string;
  face?: RequestEntry['face'];
  /** Entries at or after this instant of the account's clock. */
  since?: string | Date;
  /** 1 to 1000 (default 50). */
  limit?: number;
  /** The nextCursor of the previous page. */
  cursor?: string;
}
/** An entry of the request log: what was sent and what was answered (secrets masked). */
export type RequestEntry = RequestView;
export interface RequestPage {
  items: RequestEntry[];
  nextCursor: string | null;
  limit: number;
}
export interface DeliveryQuery {
  state?: 'pending' | 'succeeded' | 'failed';
  event?: EventKind;
  eventId?: string;
  endpointId?: string;
}

/** A non-2xx answer of the sandbox, with its error envelope (sandbox.md 2.2). */
export class SandboxApiError extends Error {
  override readonly name = 'SandboxApiError';
  /** HTTP status. */
  readonly status: number;
  /** `details.code` of the envelope (VALIDATION_ERROR, INVALID_STATE_TRANSITION, SETTLE_TIMEOUT...), or the `error` name. */
  readonly code: string;
  readonly method: string;
  readonly path: string;
  readonly details: Record<string, unknown>;
  /** The parsed body (the envelope), or the raw text when it was not JSON. */
  readonly body: unknown;
  constructor(method: string, path: string, status: number, body: unknown) {
    const envelope = (typeof body === 'object' && body !== null ? body : {}) as { message?: unknown; error?: unknown; details?: unknown };
    const details = (typeof envelope.details === 'object' && envelope.details !== null ? envelope.details : {}) as Record<string, unknown>;
    const code = typeof details.code === 'string' ? details.code : typeof envelope.error === 'string' ? envelope.error : `HTTP_${status}`;
    const message = typeof envelope.message === 'string' ? envelope.message : typeof body === 'string' ? body : `HTTP ${status}`;
    super(`${method} ${path} answered ${status} ${code}: ${message}`);
    this.status = status;
    this.code = code;
    this.method = method;
    this.path = path;
    this.details = details;
    this.body = body;
  }
}

export interface ConnectOptions {
  /** The sandbox's SANDBOX_ADMIN_TOKEN, sent as X-Sandbox-Token. */
  adminToken?: string;
  /** fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

export interface SettleOptions {
  /** Real-time milliseconds to wait (default 10000, at most 120000). */
  timeoutMs?: number;
}

/** The control API of one sandbox. Every method is one /_sandbox call; a non-2xx answer throws SandboxApiError. */
export interface SandboxClient {
  /** Base URL of the sandbox, without a trailing slash (e.g. http://127.0.0.1:4747). */
  readonly url: string;
  accounts: {
    create(spec?: AccountSpec): Promise<Account>;
    list(): Promise<List<AccountSummary>>;
    get(accountId: string): Promise<Account>;
    update(accountId: string, patch: AccountPatch): Promise<Account>;
    delete(accountId: string): Promise<{ id: string; deleted: true }>;
  };
  credentials: {
    create(accountId: string, spec?: CredentialSpec): Promise<Credential>;
    update(accountId: string, credentialId: string, patch: CredentialPatch): Promise<Credential>;
  };
  subAccounts: {
    create(accountId: string, spec: SubAccountSpec): Promise<SubAccount>;
    update(accountId: string, reference: string, patch: SubAccountPatch): Promise<SubAccount>;
  };
  institutions: {
    update(accountId: string, institutionId: string, patch: InstitutionPatch): Promise<Institution>;
  };
  adjustments: {
    create(accountId: string, adjustment: Adjustment): Promise<AdjustmentResult>;
  };
  /** POST /_sandbox/accounts/{id}/withdrawals: a withdrawal from any wallet, the body of POST /v2/withdrawals (magic keys apply). */
  withdrawals: {
    create(accountId: string, input: WithdrawalInput, opts?: { subAccount?: string }): Promise<Withdrawal & { subAccount: string | null }>;
  };
  /** Scripted stories (sandbox.md 5.1): one call makes a paid charge with its webhook, a refund, a MED block... */
  stories: {
    list(): Promise<{ items: StoryInfo[] }>;
    play(name: string, opts?: { accountId?: string; stepDelayMs?: number }): Promise<StoryResult>;
  };
  webhooks: {
    create(accountId: string, spec: WebhookSpec): Promise<WebhookEndpoint>;
    list(accountId: string): Promise<List<WebhookEndpoint>>;
    update(endpointId: string, patch: WebhookPatch): Promise<WebhookEndpoint>;
    delete(endpointId: string): Promise<{ id: string; deleted: true }>;
  };
  events: {
    list(accountId: string, query?: EventQuery): Promise<List<SandboxEventRecord>>;
  };
  deliveries: {
    list(accountId: string, query?: DeliveryQuery): Promise<List<Delivery>>;
    get(deliveryId: string): Promise<Delivery>;
    replay(deliveryId: string): Promise<Delivery>;
  };
  /** POST /_sandbox/transactions/{id}/{action} (sandbox.md 4.3). */
  transactions: {
    pay(id: string, body?: PayBody): Promise<Transaction>;
    expire(id: string): Promise<Transaction>;
    cancel(id: string): Promise<Transaction>;
    fail(id: string, body?: { reason?: string }): Promise<Transaction | Withdrawal | RefundTransaction>;
    process(id: string): Promise<Withdrawal>;
    complete(id: string): Promise<Withdrawal | RefundTransaction>;
    reverse(id: string, body?: { reason?: string }): Promise<Withdrawal>;
    block(id: string, body?: BlockBody): Promise<BalanceBlock>;
    /** Refund a completed payment as its merchant (the verb of POST /v2/transactions/{id}/refund). */
    refund(id: string, body?: { reason?: string }): Promise<RefundTransaction>;
  };
  /** POST /_sandbox/charges/{id}/{pay|expire|disable} (sandbox.md 12): payment links moved from a test. */
  paymentLinks: {
    /** One payment of the link (a completed payment transaction, `paymentId`); counters rise, a single-use link is paid. */
    pay(linkId: string, body?: PayLinkBody): Promise<PaymentLink & { paymentId: string }>;
    expire(linkId: string): Promise<PaymentLink>;
    disable(linkId: string): Promise<PaymentLink>;
  };
  balanceBlocks: {
    defend(blockId: string, body?: { reason?: string }): Promise<BalanceBlock>;
    approve(blockId: string, body?: { reason?: string }): Promise<BalanceBlock>;
    reject(blockId: string, body?: { reason?: string }): Promise<BalanceBlock>;
  };
  faults: {
    get(): Promise<{ rules: FaultRule[] }>;
    set(rules: FaultRule[]): Promise<{ rules: FaultRule[] }>;
    clear(): Promise<{ rules: FaultRule[] }>;
  };
  /** The sandbox clock (which moves the tenants without a clock of their own). */
  clock: ClockControls & {
    /**
     * The clock of a tenant (sandbox.md 4.6): a move gives it a clock of its own (where the sandbox clock stands)
     * if it has none, and moves that tenant's work only.
     */
    of(accountId: string): ClockControls;
  };
  /** Back to the fixtures; `clock: true` also puts the clock back where start-up put it (real time unless started otherwise). */
  reset(opts?: { clock?: boolean }): Promise<{ reset: boolean; accounts: number }>;
  health(): Promise<Health>;
  /** The request log (docs/requests.md): an account's (null: the sandbox-wide log), newest first, and one entry. */
  requests: {
    list(accountId: string | null, query?: RequestQuery): Promise<RequestPage>;
    get(id: string): Promise<RequestEntry>;
  };
  /** POST /_sandbox/settle: resolves once nothing is due and no delivery attempt is in flight; else throws SETTLE_TIMEOUT. */
  settle(opts?: SettleOptions): Promise<{ settled: true }>;
}

const instant = (t: string | number | Date) => (t instanceof Date ? t.toISOString() : t);
const query = (q: object | undefined) => {
  const entries = Object.entries(q ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string');
  return entries.length ? `?${new URLSearchParams(entries).toString()}` : '';
};

/** A client for the sandbox at `url` (e.g. http://127.0.0.1:4747, with no path). */
export function connect(url: string, options: ConnectOptions = {}): SandboxClient {
  const base = url.replace(/\/+$/, '');
  const fetchFn = options.fetch ?? ((input: string | URL | Request, init?: RequestInit) => globalThis.fetch(input, init));

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.adminToken !== undefined) headers['x-sandbox-token'] = options.adminToken;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetchFn(`${base}/_sandbox${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      /* not JSON: the error keeps the text */
    }
    if (!res.ok) throw new SandboxApiError(method, `/_sandbox${path}`, res.status, parsed);
    return parsed as T;
  }
  const enc = encodeURIComponent;
  const action = <T>(id: string, name: string, body?: object) => call<T>('POST', `/transactions/${enc(id)}/${name}`, body ?? {});
  const blockAction = (id: string, name: string, body?: object) => call<BalanceBlock>('POST', `/balance-blocks/${enc(id)}/${name}`, body ?? {});
  /** The controls of the clock at `path` (/clock, or /accounts/{id}/clock). */
  const clockAt = (path: string): ClockControls => {
    const put = (body: { now?: string | number | null; frozen?: boolean }) => call<Clock>('PUT', path, body);
    return {
      get: () => call('GET', path),
      set: (now, opts = {}) => put({ now: instant(now), ...opts }),
      advance: (seconds) => call('POST', `${path}/advance`, { seconds }),
      freeze: (at) => put(at === undefined ? { frozen: true } : { now: instant(at), frozen: true }),
      unfreeze: () => put({ frozen: false }),
      realTime: () => put({ now: null }),
    };
  };

  return {
    url: base,
    accounts: {
      create: (spec = {}) => call('POST', '/accounts', spec),
      list: () => call('GET', '/accounts'),
      get: (id) => call('GET', `/accounts/${enc(id)}`),
      update: (id, patch) => call('PATCH', `/accounts/${enc(id)}`, patch),
      delete: (id) => call('DELETE', `/accounts/${enc(id)}`),
    },
    credentials: {
      create: (id, spec = {}) => call('POST', `/accounts/${enc(id)}/credentials`, spec),
      update: (id, credentialId, patch) => call('PATCH', `/accounts/${enc(id)}/credentials/${enc(credentialId)}`, patch),
    },
    subAccounts: {
      create: (id, spec) => call('POST', `/accounts/${enc(id)}/sub-accounts`, spec),
      update: (id, reference, patch) => call('PATCH', `/accounts/${enc(id)}/sub-accounts/${enc(reference)}`, patch),
    },
    institutions: {
      update: (id, institutionId, patch) => call('PATCH', `/accounts/${enc(id)}/institutions/${enc(institutionId)}`, patch),
    },
    adjustments: {
      create: (id, adjustment) => call('POST', `/accounts/${enc(id)}/adjustments`, adjustment),
    },
    withdrawals: {
      create: (id, input, opts) => call('POST', `/accounts/${enc(id)}/withdrawals${query(opts)}`, input),
    },
    stories: {
      list: () => call('GET', '/stories'),
      play: (name, opts) => call('POST', `/stories/${enc(name)}`, opts ?? {}),
    },
    webhooks: {
      create: (id, spec) => call('POST', `/accounts/${enc(id)}/webhooks`, spec),
      list: (id) => call('GET', `/accounts/${enc(id)}/webhooks`),
      update: (endpointId, patch) => call('PATCH', `/webhooks/${enc(endpointId)}`, patch),
      delete: (endpointId) => call('DELETE', `/webhooks/${enc(endpointId)}`),
    },
    events: {
      list: (id, q) => call('GET', `/accounts/${enc(id)}/events${query(q)}`),
    },
    requests: {
      list: (id, q) => {
        const text = q && Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : String(v)]));
        return call('GET', `${id === null ? '' : `/accounts/${enc(id)}`}/requests${query(text)}`);
      },
      get: (id) => call('GET', `/requests/${enc(id)}`),
    },
    deliveries: {
      list: (id, q) => call('GET', `/accounts/${enc(id)}/deliveries${query(q)}`),
      get: (deliveryId) => call('GET', `/deliveries/${enc(deliveryId)}`),
      replay: (deliveryId) => call('POST', `/deliveries/${enc(deliveryId)}/replay`, {}),
    },
    transactions: {
      pay: (id, body) => action(id, 'pay', body),
      expire: (id) => action(id, 'expire'),
      cancel: (id) => action(id, 'cancel'),
      fail: (id, body) => action(id, 'fail', body),
      process: (id) => action(id, 'process'),
      complete: (id) => action(id, 'complete'),
      reverse: (id, body) => action(id, 'reverse', body),
      block: (id, body) => action(id, 'block', body),
      refund: (id, body) => action(id, 'refund', body),
    },
    paymentLinks: {
      pay: (id, body) => call('POST', `/charges/${enc(id)}/pay`, body ?? {}),
      expire: (id) => call('POST', `/charges/${enc(id)}/expire`, {}),
      disable: (id) => call('POST', `/charges/${enc(id)}/disable`, {}),
    },
    balanceBlocks: {
      defend: (id, body) => blockAction(id, 'defend', body),
      approve: (id, body) => blockAction(id, 'approve', body),
      reject: (id, body) => blockAction(id, 'reject', body),
    },
    faults: {
      get: () => call('GET', '/faults'),
      set: (rules) => call('PUT', '/faults', { rules }),
      clear: () => call('DELETE', '/faults'),
    },
    clock: { ...clockAt('/clock'), of: (accountId) => clockAt(`/accounts/${enc(accountId)}/clock`) },
    reset: (opts) => call('POST', '/reset', opts ?? {}),
    health: () => call('GET', '/health'),
    settle: (opts = {}) => call('POST', '/settle', opts),
  };
}
