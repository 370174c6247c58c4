// Tenants: accounts with their wallets, credentials, API keys, sub-accounts, projects and institutions. The same
// verb builds the fixtures' default world and every account made through POST /_sandbox/accounts.
import type { Deps } from '../deps';
import { conflict, SandboxError, validationError, type ErrorCode } from '../domain/errors';
import { post } from '../domain/ledger';
import { fundsDetails, fundsText, spendable } from '../domain/claims';
import { brlText, DEFAULT_FEES, fixedFee, type Cents, type FeeSchedule } from '../domain/money';
import { findSubAccount, mainWallet, PRINCIPAL, referenceProblem } from '../domain/subaccounts';
import type {
  Account,
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
  institutions?: { id?: string; name: string; status?: InstitutionStatus; enabled?: boolean }[];
  subAccounts?: SubAccountSpec[];
  projects?: { id?: string; name: string; color?: string; description?: string; logoUrl?: string; subAccount?: string }[];
  credentials?: CredentialSpec[];
  apiKeys?: { id?: string; key?: string; permissions?: string[] }[];
  webhooks?: WebhookSpec[];
  /** PIX keys of the standard face (sandbox.md 9); absent: a random key (EVP) and a generated CNPJ. */
  pixKeys?: { key: string; type: PixKeyType }[];
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
 * Every id in use across the sandbox (sandbox.md 2.8): accounts and their wallets, sub-accounts, credentials (id and
 * clientId), API keys (id and key), webhook endpoints, projects and institutions. A spec that reuses one, against the
 * state or inside itself, is a 409 naming the field.
 */
export function idsInUse(deps: Deps): Set<string> {
  const ids = new Set<string>();
  for (const acc of Object.values(deps.store.state.accounts)) {
    for (const w of Object.keys(acc.wallets)) ids.add(w);
    ids.add(acc.id);
    for (const s of acc.subAccounts) ids.add(s.id);
    for (const c of acc.credentials) ids.add(c.id).add(c.clientId);
    for (const k of acc.apiKeys) ids.add(k.id).add(k.key);
    for (const w of acc.webhooks) ids.add(w.id);
    for (const p of acc.projects) ids.add(p.id);
    for (const i of acc.institutions) ids.add(i.id);
    for (const k of acc.pixKeys ?? []) ids.add(k.key);
  }
  return ids;
}

/** Takes `value` for `field`, or refuses it with a 409 when another account, wallet, credential, key or endpoint has it. */
function claim(taken: Set<string>, value: string, field: string, resource: string, code: ErrorCode = 'ID_TAKEN', shown = value): string {
  if (taken.has(value))
    throw conflict(code, resource, field, shown, `${field} '${shown}' is already in use: ids, client ids and keys are unique across every account, wallet, credential, key and endpoint of the sandbox. Choose another, or omit ${field} to get a generated one.`);
  taken.add(value);
  return value;
}

/** Adds money to a wallet as an `adjustment` transaction (how initial balances enter the ledger, too). */
function adjustmentTx(deps: Deps, account: Account, wallet: Wallet, amount: Cents, description: string): Transaction {
  const now = deps.clock.nowMs();
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
  post(account, [{ walletId: wallet.id, amount, transactionId: tx.id }], now, deps.ids.uuid);
  publishTransactions(deps.bus, account.id, tx);
  return tx;
}

function newWallet(id: string, reference: string | null, at: number): Wallet {
  return { id, reference, balances: { available: 0, held: 0, promotional: 0 }, updatedAt: at };
}

function buildCredential(deps: Deps, account: Pick<Account, 'environment'>, spec: CredentialSpec, taken: Set<string>, at = ''): Credential {
  const clientId = claim(taken, spec.clientId ?? `${envPrefix(account.environment)}${deps.ids.token(24)}`, `${at}clientId`, 'credential', 'CLIENT_ID_TAKEN');
  return {
    id: claim(taken, spec.id ?? deps.ids.uuid(), `${at}id`, 'credential'),
    clientId,
    clientSecret: spec.clientSecret ?? deps.ids.token(40),
    permissions: spec.permissions ?? ['FULL_ACCESS'],
    subAccountAccess: spec.subAccountAccess ?? false,
    createdAt: deps.clock.nowMs(),
  };
}

function buildSubAccount(deps: Deps, account: Account, spec: SubAccountSpec, taken: Set<string>, at = ''): SubAccount {
  const problem = referenceProblem(spec.reference);
  if (problem) throw new SandboxError('SUB_ACCOUNT_INVALID_REFERENCE', problem, { field: 'reference', value: spec.reference });
  if (findSubAccount(account, spec.reference))
    throw conflict('SUB_ACCOUNT_REFERENCE_TAKEN', 'sub-account', 'reference', spec.reference, `A sub-account with reference '${spec.reference}' already exists; choose another reference.`);
  const now = deps.clock.nowMs();
  const sub: SubAccount = {
    id: claim(taken, spec.id ?? deps.ids.uuid(), `${at}id`, 'sub-account'),
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
  ids?: Set<string>,
  at = '',
): Project {
  const taken = account.projects.find((p) => p.walletId === wallet.id && p.name === spec.name);
  if (taken)
    throw conflict('PROJECT_NAME_TAKEN', 'project', 'name', spec.name, `A project named '${spec.name}' already exists; choose another name.`);
  const now = deps.clock.nowMs();
  const project: Project = {
    id: spec.id === undefined ? deps.ids.uuid() : claim(ids ?? idsInUse(deps), spec.id, `${at}id`, 'project'),
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
export function buildWebhook(deps: Deps, account: Account, spec: WebhookSpec, field = 'subAccount', taken?: Set<string>, at = ''): WebhookEndpoint {
  if (spec.subAccount && spec.subAccount !== PRINCIPAL && !findSubAccount(account, spec.subAccount))
    throw validationError([
      {
        field,
        message: `'${spec.subAccount}' is not a sub-account of this account; use one of: ${account.subAccounts.map((s) => s.reference).join(', ') || '(none)'}, or null/'principal' for the main account`,
      },
    ]);
  return {
    id: spec.id === undefined ? deps.ids.uuid() : claim(taken ?? idsInUse(deps), spec.id, `${at}id`, 'webhook'),
    url: spec.url,
    subAccount: spec.subAccount && spec.subAccount !== PRINCIPAL ? spec.subAccount : null,
    secret: spec.secret ?? `whsec_${deps.ids.token(32)}`,
    events: spec.events ?? [],
    createdAt: deps.clock.nowMs(),
  };
}

/** The account's PIX keys: each valid for its type and held by no other account (a key names one receiver). */
function buildPixKeys(deps: Deps, specs: AccountSpec['pixKeys'], taken: Set<string>) {
  const createdAt = deps.clock.nowMs();
  const keys = specs ?? [
    { key: deps.ids.uuid(), type: 'random' as const },
    { key: generateCnpj(deps.ids.randomInt), type: 'cnpj' as const },
  ];
  return keys.map((k, i) => {
    const problem = validatePixKey(k.type, k.key);
    if (problem) throw validationError([{ field: `pixKeys[${i}].key`, message: problem.replace(/^pixKey /, '') }]);
    return { key: claim(taken, k.key, `pixKeys[${i}].key`, 'pixKey'), type: k.type, createdAt };
  });
}

/**
 * Builds a whole account from a spec. Everything is checked while building a detached object; it joins the state
 * only at the end, so a spec that fails leaves nothing behind.
 */
export function createAccount(deps: Deps, spec: AccountSpec): Account {
  const now = deps.clock.nowMs();
  const taken = idsInUse(deps);
  const id = spec.id ?? deps.ids.uuid();
  if (deps.store.findAccount(id)) throw conflict('ACCOUNT_ID_TAKEN', 'account', 'id', id, `An account with id '${id}' already exists; omit id to get a generated one.`);
  claim(taken, id, 'id', 'account');
  const environment = spec.environment ?? 'sandbox';
  const account: Account = {
    id,
    name: spec.name ?? 'Sandbox Merchant',
    environment,
    status: spec.status ?? 'approved',
    createdAt: now,
    city: spec.city ?? 'Sao Paulo',
    institutionChoice: spec.institutionChoice ?? false,
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
    pixKeys: [],
    cobs: {},
    locs: {},
  };
  if (spec.balance) adjustmentTx(deps, account, mainWallet(account), spec.balance, 'Initial balance');
  (spec.subAccounts ?? []).forEach((s, i) => buildSubAccount(deps, account, s, taken, `subAccounts[${i}].`));
  (spec.projects ?? []).forEach((p, i) => createProjectIn(deps, account, walletFor(account, p.subAccount, 'projects[].subAccount'), p, taken, `projects[${i}].`));
  account.institutions = (spec.institutions ?? []).map(
    (inst, i): Institution => ({ id: claim(taken, inst.id ?? deps.ids.uuid(), `institutions[${i}].id`, 'institution'), name: inst.name, status: inst.status ?? 'up', enabled: inst.enabled ?? true }),
  );
  const credentialSpecs = spec.credentials?.length ? spec.credentials : [{ permissions: ['FULL_ACCESS'], subAccountAccess: true }];
  account.credentials = credentialSpecs.map((c, i) => buildCredential(deps, account, c, taken, spec.credentials?.length ? `credentials[${i}].` : ''));
  account.apiKeys = (spec.apiKeys ?? [{}]).map((k, i): ApiKey => {
    // The prefix says the environment (sandbox.md 2.3); the v1 guard relies on it.
    if (k.key !== undefined && !k.key.startsWith(envPrefix(environment)))
      throw validationError([{ field: `apiKeys[${i}].key`, message: `must start with ${envPrefix(environment)} in a ${environment} account; omit key to get a generated one` }]);
    // The key itself is a secret: the conflict shows its first 12 characters only.
    const key = claim(taken, k.key ?? `${envPrefix(environment)}${deps.ids.token(32)}`, `apiKeys[${i}].key`, 'apiKey', 'API_KEY_TAKEN', `${(k.key ?? '').slice(0, 12)}…`);
    return { id: claim(taken, k.id ?? deps.ids.uuid(), `apiKeys[${i}].id`, 'apiKey'), key, permissions: k.permissions ?? ['FULL_ACCESS'], createdAt: now };
  });
  account.webhooks = (spec.webhooks ?? []).map((w, i) => buildWebhook(deps, account, w, `webhooks[${i}].subAccount`, taken, `webhooks[${i}].`));
  account.pixKeys = buildPixKeys(deps, spec.pixKeys, taken);
  deps.store.state.accounts[id] = account;
  return account;
}

export interface AccountPatch {
  name?: string;
  status?: AccountStatus;
  fees?: AccountSpec['fees'];
  limits?: Partial<Limits>;
  automation?: Partial<Automation>;
  institutionChoice?: boolean;
  webhookRetrySchedule?: number[];
}

export function patchAccount(deps: Deps, accountId: string, patch: AccountPatch): Account {
  const account = deps.store.account(accountId);
  if (patch.name !== undefined) account.name = patch.name;
  if (patch.status !== undefined) account.status = patch.status;
  if (patch.fees) account.fees = mergeFees(account.fees, patch.fees);
  if (patch.limits) account.limits = { ...account.limits, ...patch.limits };
  if (patch.automation) account.automation = { ...account.automation, ...patch.automation };
  if (patch.institutionChoice !== undefined) account.institutionChoice = patch.institutionChoice;
  if (patch.webhookRetrySchedule) account.webhookRetrySchedule = patch.webhookRetrySchedule;
  return account;
}

export function deleteAccount(deps: Deps, accountId: string): void {
  deps.store.account(accountId);
  delete deps.store.state.accounts[accountId];
  const jobs = deps.store.state.jobs;
  for (const id of Object.keys(jobs)) if (jobs[id]!.accountId === accountId) delete jobs[id];
}

export function addCredential(deps: Deps, accountId: string, spec: CredentialSpec): Credential {
  const account = deps.store.account(accountId);
  const credential = buildCredential(deps, account, spec, idsInUse(deps));
  account.credentials.push(credential);
  return credential;
}

export function patchCredential(deps: Deps, accountId: string, credentialId: string, patch: { permissions?: string[]; subAccountAccess?: boolean }): Credential {
  const account = deps.store.account(accountId);
  const credential = account.credentials.find((c) => c.id === credentialId || c.clientId === credentialId);
  if (!credential) throw new SandboxError('CREDENTIAL_NOT_FOUND', `No credential '${credentialId}' in account ${accountId}; use a credential id or clientId from GET /_sandbox/accounts/${accountId}.`, { resource: 'credential', id: credentialId });
  if (patch.permissions) credential.permissions = patch.permissions;
  if (patch.subAccountAccess !== undefined) credential.subAccountAccess = patch.subAccountAccess;
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
