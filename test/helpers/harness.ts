// A fresh sandbox per test, in process (app.request), on a frozen clock, with the default fixtures.
// `api()` returns status, headers and the parsed body; `token()` authenticates; `expectLedgerBalanced()` checks
// that every wallet's balance equals the sum of its ledger entries.
import { expect } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/app';
import type { SandboxOptions } from '../../src/config';
import type { UnitHooks } from '../../src/store/unit';
import { ledgerSums } from '../../src/domain/ledger';

export const T0 = '2026-03-10T12:00:00.000Z';

export const DEFAULT = {
  accountId: '11111111-1111-4111-8111-111111111111',
  full: { clientId: 'mp_test_sandbox_full_access', clientSecret: 'sandbox-secret-full-access', id: '55555555-5555-4555-8555-555555555501' },
  pixOnly: { clientId: 'mp_test_sandbox_pix_only', clientSecret: 'sandbox-secret-pix-only', id: '55555555-5555-4555-8555-555555555502' },
  apiKey: 'mp_test_sandbox_api_key_0001',
  webhookId: '77777777-7777-4777-8777-777777777701',
  webhookSecret: 'whsec_sandbox_default_secret',
  projectId: '33333333-3333-4333-8333-333333333301',
  institutionUp: '44444444-4444-4444-8444-444444444401',
  institutionDown: '44444444-4444-4444-8444-444444444402',
  subAccounts: { centro: 'loja-centro', norte: 'loja-norte', fechada: 'loja-fechada' },
  balance: 1000,
} as const;

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  body?: unknown;
  /** Raw body text, sent as is (with `contentType`). */
  raw?: string;
  contentType?: string;
  token?: string;
  headers?: Record<string, string>;
}

export interface Harness {
  sb: Sandbox;
  api<T = any>(method: string, path: string, opts?: CallOptions): Promise<ApiResponse<T>>;
  /** Access token for a credential (default: the fixtures' FULL_ACCESS one). */
  token(clientId?: string, clientSecret?: string): Promise<string>;
  /** Calls with the FULL_ACCESS token. */
  v2<T = any>(method: string, path: string, opts?: Omit<CallOptions, 'token'> & { subAccount?: string }): Promise<ApiResponse<T>>;
  control<T = any>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>>;
  advance(seconds: number): Promise<ApiResponse>;
}

export async function startHarness(options: SandboxOptions = {}): Promise<Harness> {
  // strictReads: every GET/HEAD of the suite runs in a unit whose writes throw (reads must not change the state).
  const testHooks = options.testHooks ?? {};
  testHooks.strictReads ??= true;
  const sb = await createSandbox({ log: () => {}, clockStart: T0, freezeClock: true, ...options, testHooks });
  const api: Harness['api'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    let body: string | undefined;
    if (opts.raw !== undefined) {
      body = opts.raw;
      if (opts.contentType) headers['content-type'] = opts.contentType;
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = opts.contentType ?? 'application/json';
    }
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const res = await sb.app.request(path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, headers: res.headers, body: parsed as any, text };
  };
  const token: Harness['token'] = async (clientId = DEFAULT.full.clientId, clientSecret = DEFAULT.full.clientSecret) => {
    const res = await api('POST', '/v2/auth', { body: { client_id: clientId, client_secret: clientSecret } });
    expect(res.status, res.text).toBe(200);
    return res.body.access_token as string;
  };
  const v2: Harness['v2'] = async (method, path, opts = {}) => {
    const t = await token(); // fresh each time: tests move the clock past token expiry
    const headers = { ...opts.headers, ...(opts.subAccount ? { 'x-sub-account': opts.subAccount } : {}) };
    return api(method, `/v2${path}`, { ...opts, headers, token: t });
  };
  const control: Harness['control'] = (method, path, body) => api(method, `/_sandbox${path}`, body === undefined ? {} : { body });
  const advance = (seconds: number) => control('POST', '/clock/advance', { seconds });
  return { sb, api, token, v2, control, advance };
}

/** Every wallet of every account: balance == sum of its ledger entries, per bucket. */
export function expectLedgerBalanced(sb: Sandbox) {
  for (const account of Object.values(sb.deps.store.state.accounts)) {
    const sums = ledgerSums(account);
    for (const wallet of Object.values(account.wallets)) {
      expect(wallet.balances, `wallet ${wallet.reference ?? 'main'} of ${account.id}`).toEqual(sums[wallet.id]);
    }
  }
}

/**
 * Sends `request` with its write #1, #2, ... failing in turn (the test hook failWrite; the sandbox must have been
 * started with `hooks` as its testHooks) until it gets through. Each failed try must answer 500; `afterFailure` checks
 * what else it must have left as it was. Returns how many tries failed.
 */
export async function failEachWrite(hooks: UnitHooks, request: () => Promise<ApiResponse>, afterFailure: (res: ApiResponse, n: number) => void | Promise<void> = () => {}): Promise<number> {
  for (let n = 1; n < 500; n++) {
    hooks.failWrite = { kind: 'request', n };
    const res = await request().finally(() => (hooks.failWrite = null));
    if (res.status < 400) return n - 1;
    expect(res.status, `write #${n}: ${res.text}`).toBe(500);
    await afterFailure(res, n);
  }
  throw new Error('the request never got through');
}
