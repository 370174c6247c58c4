// Tenants: accounts with their wallets, credentials, API keys, sub-accounts, projects and institutions. The same
// verb builds the fixtures' default world and every account made through POST /_sandbox/accounts.
import { DURATION_HINT, parseDuration } from '../lib/duration';
import type { Deps } from '../deps';
import { conflict, SandboxError, validationError, type ErrorCode } from '../domain/errors';
import { post } from '../domain/ledger';
import { fundsDetails, fundsText, spendable } from '../domain/claims';
import { brlText, DEFAULT_FEES, fixedFee, type Cents, type FeeSchedule } from '../domain/money';
import { findSubAccount, mainWallet, PRINCIPAL, referenceProblem } from '../domain/subaccounts';
import type {
  Account,
  BankAccount,
  Company,
  AccountStatus,
  ApiKey,
  Automation,
  Credential,
  Environment,
  Institution,
  InstitutionStatus,
  Limits,
  Project,
  SubAccount,
  Transaction,
  Wallet,
  WebhookEndpoint,
} from '../domain/types';
import { opt } from '../lib/objects';
import { publishTransactions } from '../lib/bus';
import { generateCnpj, validatePixKey, type PixKeyType } from '../pix';
import { noteHolder } from './holders';
import { clockStateAt, instantOf, nowOf } from './clocks';

export const DEFAULT_RETRY_SCHEDULE = [5, 30, 120, 600, 3600];
export const DEFAULT_AUTOMATION: Automation = { completeAfterSeconds: 2, autoPayAfterSeconds: null, magicValues: true };

export interface AccountSpec {
  id?: string;
  name?: string;
  environment?: Environment;
  status?: AccountStatus;
  city?: string;
  balance?: Cents;
  fees?: { pix?: Partial<FeeSchedule['pix']>; withdrawal?: Partial<FeeSchedule['withdrawal']>; refund?: Partial<FeeSchedule['refund']> };
  limits?: Partial<Limits>;
  automation?: Partial<Automation>;
  webhookRetrySchedule?: number[];
  institutionChoice?: boolean;
  strict?: boolean;
  institutions?: { id?: string; name: string; status?: InstitutionStatus; enabled?: boolean }[];
  subAccounts?: SubAccountSpec[];
  projects?: { id?: string; name: string; color?: string; description?: string; logoUrl?: string; subAccount?: string }[];
  credentials?: CredentialSpec[];
  apiKeys?: { id?: string; key?: string; permissions?: string[] }[];
  webhooks?: WebhookSpec[];
  /** v1 (sandbox.md 12): bank accounts a withdrawal names by bankAccountId, the vendor word of the webhook headers, the company GET /v1/account shows. */
  bankAccounts?: BankAccountSpec[];
  webhookHeaderWord?: string;
  company?: Company;
  /** PIX keys (sandbox.md 9): the chave of the standard face, and the first one is the key of static QR codes; absent: a random key (EVP) and a generated CNPJ. */
  pixKeys?: { key: string; type: PixKeyType }[];
  /** A clock of its own (sandbox.md 4.6): at `now` (absent: the sandbox clock's; null: real time), frozen or not (absent: as the sandbox clock). */
  clock?: { now?: string | number | null; frozen?: boolean };
  /** Its own retention (services/retention.ts): a duration like '1d', checked by the schema; absent: the sandbox's --retain. */
  retain?: string;
}

export interface BankAccountSpec {
  id?: string;
  bank: string;
  agency: string;
  account: string;
  holderName: string;
  holderDocument: string;
}

function buildBankAccounts(deps: Deps, specs: BankAccountSpec[], taken: IdsInUse, at: string): BankAccount[] {
  return specs.map((b, i) => ({
    id: claim(taken, b.id, deps.ids.uuid, `${at}bankAccounts[${i}].id`, 'bankAccount'),
    bank: b.bank,
    agency: b.agency,
    account: b.account,
    holderName: b.holderName,
    holderDocument: b.holderDocument,
  }));
}

export interface SubAccountSpec {
  id?: string;
  reference: string;
  name?: string;
  status?: AccountStatus;
  balance?: Cents;
}

export interface CredentialSpec {
  id?: string;
  clientId?: string;
  clientSecret?: string;
  permissions?: string[];
  subAccountAccess?: boolean;
}

export interface WebhookSpec {
  id?: string;
  url: string | null;
  subAccount?: string | null;
  secret?: string;
  events?: string[];
}

const envPrefix = (env: Environment) => (env === 'production' ? 'mp_live_' : 'mp_test_');

function mergeFees(base: FeeSchedule, patch: AccountSpec['fees']): FeeSchedule {
  return {
    pix: { ...base.pix, ...patch?.pix },
    withdrawal: { ...base.withdrawal, ...patch?.withdrawal },
    refund: { ...base.refund, ...patch?.refund },
  };
}

/**
 * The ids in use across the sandbox (sandbox.md 2.8): accounts and their wallets, sub-accounts, credentials (id and
 * clientId), API keys (id and key), webhook endpoints, projects and institutions. A spec that reuses one, against the
 * state or inside itself, is a 409 naming the field. The state is scanned only when a spec chooses an id (once per
 * request, on the raw state): a generated id (a random UUID or token) is checked against the spec's own ids only, so
 * making a tenant costs the same with 1 or 1,000 tenants.
 */
export class IdsInUse {
  private readonly mine = new Set<string>();
  private readonly released = new Set<string>();
  private all: Set<string> | undefined;
  constructor(private readonly deps: Deps) {}

  has(value: string): boolean {
    return this.mine.has(value) || (!this.released.has(value) && (this.all ??= scanIds(this.deps)).has(value));
  }

  add(value: string): void {
    this.mine.add(value);
  }

  /** An id the change gives up (a bank account being replaced), which its spec may name again. */
  release(value: string): void {
    this.released.add(value);
  }
}

export const idsInUse = (deps: Deps) => new IdsInUse(deps);

function scanIds(deps: Deps): Set<string> {
  const ids = new Set<string>();
  for (const acc of Object.values(deps.store.raw.accounts)) {
    for (const w of Object.keys(acc.wallets)) ids.add(w);
    ids.add(acc.id);
    for (const s of acc.subAccounts) ids.add(s.id);
    for (const c of acc.credentials) ids.add(c.id).add(c.clientId);
    for (const k of acc.apiKeys) ids.add(k.id).add(k.key);
    for (const w of acc.webhooks) ids.add(w.id);
    for (const p of acc.projects) ids.add(p.id);
    for (const i of acc.institutions) ids.add(i.id);
    for (const b of acc.bankAccounts ?? []) ids.add(b.id);
    for (const k of acc.pixKeys ?? []) ids.add(k.key);
  }
  return ids;
}

/**
 * Takes the `chosen` value for `field`, or refuses it with a 409 when another account, wallet, credential, key or
 * endpoint has it; without one, a `generated` value (random, so never checked against the state).
 */
function claim(taken: IdsInUse, chosen: string | undefined, generated: () => string, field: string, resource: string, code: ErrorCode = 'ID_TAKEN', shown = chosen): string {
  if (chosen === undefined) {
    const value = generated();
    taken.add(value);
    return value;
  }
  if (taken.has(chosen))
    throw conflict(code, resource, field, shown!, `${field} '${shown}' is already in use: ids, client ids and keys are unique across every account, wallet, credential, key and endpoint of the sandbox. Choose another, or omit ${field} to get a generated one.`);
  taken.add(chosen);
  return chosen;
}

/** Adds money to a wallet as an `adjustment` transaction (how initial balances enter the ledger, too). */
function adjustmentTx(deps: Deps, account: Account, wallet: Wallet, amount: Cents, description: string): Transaction {
  const now = nowOf(deps, account);
  const tx: Transaction = {
    id: deps.ids.uuid(),
    walletId: wallet.id,
    type: 'adjustment',
    status: 'completed',
    paymentMethod: 'pix',
    amount,
    createdAt: now,
    updatedAt: now,
    description,
  };
  account.transactions[tx.id] = tx;
  noteHolder(deps.store, 'transaction', tx.id, account.id);
  post(account, [{ walletId: wallet.id, amount, transactionId: tx.id }], now, deps.ids.uuid);
  publishTransactions(deps.bus, account.id, tx);
  return tx;
}

function newWallet(id: string, reference: string | null, at: number): Wallet {
  return { id, reference, balances: { available: 0, held: 0, promotional: 0 }, updatedAt: at };
}

function buildCredential(deps: Deps, account: Pick<Account, 'environment' | 'clock'>, spec: CredentialSpec, taken: IdsInUse, at = ''): Credential {
  const clientId = claim(taken, spec.clientId, () => `${envPrefix(account.environment)}${deps.ids.token(24)}`, `${at}clientId`, 'credential', 'CLIENT_ID_TAKEN');
  return {
    id: claim(taken, spec.id, deps.ids.uuid, `${at}id`, 'credential'),
    clientId,
    clientSecret: spec.clientSecret ?? deps.ids.token(40),
    permissions: spec.permissions ?? ['FULL_ACCESS'],
    subAccountAccess: spec.subAccountAccess ?? false,
    createdAt: nowOf(deps, account),
  };
}

function buildSubAccount(deps: Deps, account: Account, spec: SubAccountSpec, taken: IdsInUse, at = ''): SubAccount {
  const problem = referenceProblem(spec.reference);
  if (problem) throw new SandboxError('SUB_ACCOUNT_INVALID_REFERENCE', problem, { field: 'reference', value: spec.reference });
  if (findSubAccount(account, spec.reference))
    throw conflict('SUB_ACCOUNT_REFERENCE_TAKEN', 'sub-account', 'reference', spec.reference, `A sub-account with reference '${spec.reference}' already exists; choose another reference.`);
  const now = nowOf(deps, account);
  const sub: SubAccount = {
    id: claim(taken, spec.id, deps.ids.uuid, `${at}id`, 'sub-account'),
    reference: spec.reference,
    name: spec.name ?? spec.reference,
    status: spec.status ?? 'approved',
    createdAt: now,
  };
  account.subAccounts.push(sub);
  account.wallets[sub.id] = newWallet(sub.id, sub.reference, now);
  if (spec.balance) adjustmentTx(deps, account, account.wallets[sub.id]!, spec.balance, 'Initial balance');
  return sub;
}

function walletFor(account: Account, reference: string | null | undefined, field: string): Wallet {
  if (!reference || reference === PRINCIPAL) return mainWallet(account);
  const sub = findSubAccount(account, reference);
  if (!sub) throw new SandboxError('SUB_ACCOUNT_NOT_FOUND', `${field} '${reference}' is not a sub-account of this account; create it first or use one of: ${account.subAccounts.map((s) => s.reference).join(', ') || '(none)'}.`, { resource: 'sub-account', id: reference });
  return account.wallets[sub.id]!;
}

export function createProjectIn(
  deps: Deps,
  account: Account,
  wallet: Wallet,
  spec: { id?: string; name: string; color?: string; description?: string; logoUrl?: string },
  ids?: IdsInUse,
  at = '',
): Project {
  const taken = account.projects.find((p) => p.walletId === wallet.id && p.name === spec.name);
  if (taken)
    throw conflict('PROJECT_NAME_TAKEN', 'project', 'name', spec.name, `A project named '${spec.name}' already exists; choose another name.`);
  const now = nowOf(deps, account);
  const project: Project = {
    id: claim(ids ?? idsInUse(deps), spec.id, deps.ids.uuid, `${at}id`, 'project'),
    walletId: wallet.id,
    name: spec.name,
    color: spec.color ?? '#1A73E8',
    createdAt: now,
    updatedAt: now,
    ...opt('description', spec.description),
    ...opt('logoUrl', spec.logoUrl),
  };
  account.projects.push(project);
  return project;
}

/** An endpoint of `account`. An unknown sub-account is a 400 naming `field`: the body is wrong, no resource is missing. */
export function buildWebhook(deps: Deps, account: Account, spec: WebhookSpec, field = 'subAccount', taken?: IdsInUse, at = ''): WebhookEndpoint {
  if (spec.subAccount && spec.subAccount !== PRINCIPAL && !findSubAccount(account, spec.subAccount))
    throw validationError([
      {
        field,
        message: `'${spec.subAccount}' is not a sub-account of this account; use one of: ${account.subAccounts.map((s) => s.reference).join(', ') || '(none)'}, or null/'principal' for the main account`,
      },
    ]);
  return {
    id: claim(taken ?? idsInUse(deps), spec.id, deps.ids.uuid, `${at}id`, 'webhook'),
    url: spec.url,
    subAccount: spec.subAccount && spec.subAccount !== PRINCIPAL ? spec.subAccount : null,
    secret: spec.secret ?? `whsec_${deps.ids.token(32)}`,
    events: spec.events ?? [],
    createdAt: nowOf(deps, account),
  };
}

/** The account's PIX keys: each valid for its type and held by no other account (a key names one receiver). */
function buildPixKeys(deps: Deps, specs: AccountSpec['pixKeys'], taken: IdsInUse, createdAt: number) {
  const keys = specs ?? [
    { key: deps.ids.uuid(), type: 'random' as const },
    { key: generateCnpj(deps.ids.randomInt), type: 'cnpj' as const },
  ];
  return keys.map((k, i) => {
    const problem = validatePixKey(k.type, k.key);
    if (problem) throw validationError([{ field: `pixKeys[${i}].key`, message: problem.replace(/^pixKey /, '') }]);
    // Generated keys are random (checked against the spec only, as other generated ids); chosen ones against the state.
    return { key: claim(taken, specs ? k.key : undefined, () => k.key, `pixKeys[${i}].key`, 'pixKey'), type: k.type, createdAt };
  });
}

/**
 * Builds a whole account from a spec. Everything is checked while building a detached object; it joins the state
 * only at the end, so a spec that fails leaves nothing behind.
 */
export function createAccount(deps: Deps, spec: AccountSpec): Account {
  const clock = spec.clock && clockStateAt(deps.clock, instantOf(deps.clock, spec.clock.now), spec.clock.frozen ?? (spec.clock.now === null ? false : deps.clock.frozen));
  const now = clock ? nowOf(deps, { clock }) : deps.clock.nowMs();
  const taken = idsInUse(deps);
  if (spec.id !== undefined && deps.store.findAccount(spec.id))
    throw conflict('ACCOUNT_ID_TAKEN', 'account', 'id', spec.id, `An account with id '${spec.id}' already exists; omit id to get a generated one.`);
  const id = claim(taken, spec.id, deps.ids.uuid, 'id', 'account');
  const environment = spec.environment ?? 'sandbox';
  const account: Account = {
    id,
    name: spec.name ?? 'Sandbox Merchant',
    environment,
    status: spec.status ?? 'approved',
    createdAt: now,
    city: spec.city ?? 'Sao Paulo',
    institutionChoice: spec.institutionChoice ?? false,
    ...(spec.strict ? { strict: true } : {}),
    fees: mergeFees(DEFAULT_FEES, spec.fees),
    limits: { withdrawalMax: null, dailyWithdrawalMax: null, ...spec.limits },
    automation: { ...DEFAULT_AUTOMATION, ...spec.automation },
    webhookRetrySchedule: spec.webhookRetrySchedule ?? DEFAULT_RETRY_SCHEDULE,
    wallets: { [id]: newWallet(id, null, now) },
    subAccounts: [],
    credentials: [],
    apiKeys: [],
    projects: [],
    institutions: [],
    transactions: {},
    ledger: [],
    idempotency: {},
    webhooks: [],
    events: [],
    deliveries: {},
    customers: [],
    balanceBlocks: {},
    paymentLinks: {},
    staticQrs: {},
    bankAccounts: [],
    ...opt('webhookHeaderWord', spec.webhookHeaderWord),
    ...opt('company', spec.company),
    pixKeys: [],
    cobs: {},
    locs: {},
    lotesCobV: {},
    recs: {},
    locrecs: {},
    solicrecs: {},
    cobrs: {},
    ...opt('clock', clock),
    ...opt('retainMs', spec.retain === undefined ? undefined : retainMsOf(deps, spec.retain)),
  };
  if (spec.balance) adjustmentTx(deps, account, mainWallet(account), spec.balance, 'Initial balance');
  (spec.subAccounts ?? []).forEach((s, i) => buildSubAccount(deps, account, s, taken, `subAccounts[${i}].`));
  (spec.projects ?? []).forEach((p, i) => createProjectIn(deps, account, walletFor(account, p.subAccount, 'projects[].subAccount'), p, taken, `projects[${i}].`));
  account.institutions = (spec.institutions ?? []).map(
    (inst, i): Institution => ({ id: claim(taken, inst.id, deps.ids.uuid, `institutions[${i}].id`, 'institution'), name: inst.name, status: inst.status ?? 'up', enabled: inst.enabled ?? true }),
  );
  const credentialSpecs = spec.credentials?.length ? spec.credentials : [{ permissions: ['FULL_ACCESS'], subAccountAccess: true }];
  account.credentials = credentialSpecs.map((c, i) => buildCredential(deps, account, c, taken, spec.credentials?.length ? `credentials[${i}].` : ''));
  account.apiKeys = (spec.apiKeys ?? [{}]).map((k, i): ApiKey => {
    // The prefix says the environment (sandbox.md 2.3); the v1 guard relies on it.
    if (k.key !== undefined && !k.key.startsWith(envPrefix(environment)))
      throw validationError([{ field: `apiKeys[${i}].key`, message: `must start with ${envPrefix(environment)} in a ${environment} account; omit key to get a generated one` }]);
    // The key itself is a secret: the conflict shows its first 12 characters only.
    const key = claim(taken, k.key, () => `${envPrefix(environment)}${deps.ids.token(32)}`, `apiKeys[${i}].key`, 'apiKey', 'API_KEY_TAKEN', `${(k.key ?? '').slice(0, 12)}…`);
    return { id: claim(taken, k.id, deps.ids.uuid, `apiKeys[${i}].id`, 'apiKey'), key, permissions: k.permissions ?? ['FULL_ACCESS'], createdAt: now };
  });
  account.webhooks = (spec.webhooks ?? []).map((w, i) => buildWebhook(deps, account, w, `webhooks[${i}].subAccount`, taken, `webhooks[${i}].`));
  account.bankAccounts = buildBankAccounts(deps, spec.bankAccounts ?? [], taken, '');
  account.pixKeys = buildPixKeys(deps, spec.pixKeys, taken, now);
  deps.store.state.accounts[id] = account;
  // What building it scheduled (a delivery of its initial balance's event) runs on its own clock.
  if (clock) deps.scheduler.adopt(id);
  return account;
}

export interface AccountPatch {
  name?: string;
  status?: AccountStatus;
  fees?: AccountSpec['fees'];
  limits?: Partial<Limits>;
  automation?: Partial<Automation>;
  institutionChoice?: boolean;
  strict?: boolean;
  webhookRetrySchedule?: number[];
  /** Replaces the account's bank accounts (ids of the kept ones may be given again). */
  bankAccounts?: BankAccountSpec[];
  /** null goes back to the sandbox's word. */
  webhookHeaderWord?: string | null;
  company?: Company | null;
  /** null goes back to the sandbox's --retain. */
  retain?: string | null;
}

export function patchAccount(deps: Deps, accountId: string, patch: AccountPatch): Account {
  const account = deps.store.account(accountId);
  if (patch.name !== undefined) account.name = patch.name;
  if (patch.status !== undefined) account.status = patch.status;
  if (patch.fees) account.fees = mergeFees(account.fees, patch.fees);
  if (patch.limits) account.limits = { ...account.limits, ...patch.limits };
  if (patch.automation) account.automation = { ...account.automation, ...patch.automation };
  if (patch.institutionChoice !== undefined) account.institutionChoice = patch.institutionChoice;
  if (patch.strict === true) account.strict = true;
  else if (patch.strict === false) delete account.strict;
  if (patch.webhookRetrySchedule) account.webhookRetrySchedule = patch.webhookRetrySchedule;
  if (patch.bankAccounts) {
    const taken = idsInUse(deps);
    for (const b of account.bankAccounts) taken.release(b.id);
    account.bankAccounts = buildBankAccounts(deps, patch.bankAccounts, taken, '');
  }
  if (patch.webhookHeaderWord === null) delete account.webhookHeaderWord;
  else if (patch.webhookHeaderWord !== undefined) account.webhookHeaderWord = patch.webhookHeaderWord;
  if (patch.company === null) delete account.company;
  else if (patch.company !== undefined) account.company = patch.company;
  if (patch.retain === null) delete account.retainMs;
  else if (patch.retain !== undefined) account.retainMs = retainMsOf(deps, patch.retain);
  return account;
}

/** A tenant's own retention period, which the schema checked (control/schemas.ts), in ms; sweeps run from now on. */
function retainMsOf(deps: Deps, text: string): number {
  const ms = parseDuration(text);
  if (ms === null) throw validationError([{ field: 'retain', message: `must be ${DURATION_HINT}` }]);
  deps.retention.ownPeriod();
  return ms;
}

export function deleteAccount(deps: Deps, accountId: string): void {
  deps.store.account(accountId);
  delete deps.store.state.accounts[accountId];
  // Its request log goes once the deletion holds (a deletion undone keeps it).
  const forget = () => deps.requestLog.forgetAccount(accountId);
  if (!deps.store.afterCommit(forget)) forget();
  const jobs = deps.store.raw.jobs; // read only: the scheduler takes them off
  for (const id of Object.keys(jobs)) if (jobs[id]!.accountId === accountId) deps.scheduler.unschedule(id);
  deps.scheduler.release(accountId); // its clock's lane, if it had one, holds nothing of it any more
}

export function addCredential(deps: Deps, accountId: string, spec: CredentialSpec): Credential {
  const account = deps.store.account(accountId);
  const credential = buildCredential(deps, account, spec, idsInUse(deps));
  account.credentials.push(credential);
  return credential;
}

function findCredentialOf(deps: Deps, accountId: string, credentialId: string): { account: Account; credential: Credential } {
  const account = deps.store.account(accountId);
  const credential = account.credentials.find((c) => c.id === credentialId || c.clientId === credentialId);
  if (!credential) throw new SandboxError('CREDENTIAL_NOT_FOUND', `No credential '${credentialId}' in account ${accountId}; use a credential id or clientId from GET /_sandbox/accounts/${accountId}.`, { resource: 'credential', id: credentialId });
  return { account, credential };
}

/** Expires every token issued for the credential so far (sandbox.md 4.6): the next call with one is a 401. */
export function expireTokens(deps: Deps, accountId: string, credentialId: string): Credential {
  const { credential } = findCredentialOf(deps, accountId, credentialId);
  credential.tokenGeneration = (credential.tokenGeneration ?? 0) + 1;
  return credential;
}

export function patchCredential(deps: Deps, accountId: string, credentialId: string, patch: { permissions?: string[]; subAccountAccess?: boolean }): Credential {
  const { credential } = findCredentialOf(deps, accountId, credentialId);
  if (patch.permissions) credential.permissions = patch.permissions;
  if (patch.subAccountAccess !== undefined) credential.subAccountAccess = patch.subAccountAccess;
  return credential;
}

/** Deletes a credential: every token issued for it is refused from the next request on (the guards read it each time). */
export function deleteCredential(deps: Deps, accountId: string, credentialId: string): Credential {
  const { account, credential } = findCredentialOf(deps, accountId, credentialId);
  account.credentials = account.credentials.filter((c) => c !== credential);
  return credential;
}

export function addSubAccount(deps: Deps, accountId: string, spec: SubAccountSpec): SubAccount {
  const account = deps.store.account(accountId);
  const sub = buildSubAccount(deps, account, spec, idsInUse(deps));
  return sub;
}

export function patchSubAccount(deps: Deps, accountId: string, reference: string, patch: { status?: AccountStatus; name?: string }): SubAccount {
  const account = deps.store.account(accountId);
  const sub = findSubAccount(account, reference);
  if (!sub) throw new SandboxError('SUB_ACCOUNT_NOT_FOUND', `No sub-account '${reference}' in account ${accountId}.`, { resource: 'sub-account', reference });
  if (patch.status !== undefined) sub.status = patch.status;
  if (patch.name !== undefined) sub.name = patch.name;
  return sub;
}

export function patchInstitution(deps: Deps, accountId: string, institutionId: string, patch: { status?: InstitutionStatus; enabled?: boolean; name?: string }): Institution {
  const account = deps.store.account(accountId);
  const inst = account.institutions.find((i) => i.id === institutionId);
  if (!inst) throw new SandboxError('INSTITUTION_NOT_FOUND', `No institution '${institutionId}' in account ${accountId}.`, { resource: 'institution', id: institutionId });
  Object.assign(inst, patch);
  return inst;
}

export function adjust(deps: Deps, accountId: string, input: { amount: Cents; subAccount?: string | null; description?: string }): Transaction {
  const account = deps.store.account(accountId);
  const wallet = walletFor(account, input.subAccount, 'subAccount');
  if (input.amount < 0) {
    // Only a balance block may take available below zero (sandbox.md 2.8), so a debit takes at most what can be spent.
    const funds = spendable(account, wallet, fixedFee(account.fees.refund.fixed));
    if (-input.amount > funds.spendable)
      throw new SandboxError('INSUFFICIENT_BALANCE', `A debit of ${brlText(-input.amount)} would take the wallet below zero: ${fundsText(funds)}; debit at most that.`, fundsDetails(-input.amount, funds));
  }
  const tx = adjustmentTx(deps, account, wallet, input.amount, input.description ?? (input.amount >= 0 ? 'Sandbox credit' : 'Sandbox debit'));
  return tx;
}

export { walletFor };
