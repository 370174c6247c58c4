// A fresh sandbox per test, on a frozen clock, with the default fixtures, called on a real port by default (STYLE.md
// habit 19: users call a listener). `api()` returns status, headers and the parsed body; `token()` authenticates;
// `expectLedgerBalanced()` checks that every wallet's balance equals the sum of its ledger entries.
//
// The transport: SANDBOX_TEST_TRANSPORT=port (the default: the sandbox listens on a free port and each call is an HTTP
// request over a keep-alive connection, as clients connect) or =process (app.request(), no socket). `npm test` runs
// the port; SANDBOX_TEST_TRANSPORT=process npx vitest run test/teach ... runs the same suites in process, and
// test/foundation/twins.test.ts compares the two. The listeners a file opened are closed after the file.
import { Agent, request as httpRequest } from 'node:http';
import { afterAll, expect } from 'vitest';
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

export type Transport = 'port' | 'process';

/** The transport of this run: SANDBOX_TEST_TRANSPORT, else the real port. */
export function testTransport(): Transport {
  const t = process.env.SANDBOX_TEST_TRANSPORT ?? 'port';
  if (t !== 'port' && t !== 'process') throw new Error(`SANDBOX_TEST_TRANSPORT must be port or process, not ${t}`);
  return t;
}

export interface Harness {
  sb: Sandbox;
  /** How this harness calls the sandbox; `url` is its listener's address on a real port. */
  transport: Transport;
  url?: string;
  api<T = any>(method: string, path: string, opts?: CallOptions): Promise<ApiResponse<T>>;
  /** Access token for a credential (default: the fixtures' FULL_ACCESS one). */
  token(clientId?: string, clientSecret?: string): Promise<string>;
  /** Calls with the FULL_ACCESS token. */
  v2<T = any>(method: string, path: string, opts?: Omit<CallOptions, 'token'> & { subAccount?: string }): Promise<ApiResponse<T>>;
  control<T = any>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>>;
  advance(seconds: number): Promise<ApiResponse>;
}

/** The sandboxes this file's harnesses opened on a port, closed after the file (a test may close its own first). */
const listening = new Set<Sandbox>();
afterAll(async () => {
  for (const sb of [...listening]) await sb.close();
  listening.clear();
});

/** One request over `agent`'s keep-alive connections; repeated answer headers are appended, as fetch's Headers does. */
function overPort(url: string, agent: Agent, method: string, path: string, headers: Record<string, string>, body: string | undefined): Promise<{ status: number; headers: Headers; text: string }> {
  return new Promise((resolve, reject) => {
    // A length for every body, as fetch and curl send it (node:http would send a DELETE's body with neither length nor chunks).
    const sized = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const req = httpRequest(`${url}${path}`, { method, headers: sized, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const answer = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2) answer.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        resolve({ status: res.statusCode ?? 0, headers: answer, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function startHarness(options: SandboxOptions = {}, transport: Transport = testTransport()): Promise<Harness> {
  // strictReads: every GET/HEAD of the suite runs in a unit whose writes throw (reads must not change the state).
  const testHooks = options.testHooks ?? {};
  testHooks.strictReads ??= true;
  const sb = await createSandbox({ log: () => {}, clockStart: T0, freezeClock: true, ...options, testHooks });
  let url: string | undefined;
  let send: (method: string, path: string, headers: Record<string, string>, body: string | undefined) => Promise<{ status: number; headers: Headers; text: string }>;
  if (transport === 'port') {
    url = await sb.listen({ port: 0 });
    listening.add(sb);
    const close = sb.close.bind(sb);
    sb.close = () => (listening.delete(sb), close());
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    send = (method, path, headers, body) => overPort(url!, agent, method, path, headers, body);
  } else {
    send = async (method, path, headers, body) => {
      const res = await sb.app.request(path, { method, headers, body });
      return { status: res.status, headers: res.headers, text: await res.text() };
    };
  }
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
    const { status, headers: answer, text } = await send(method, path, headers, body);
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    return { status, headers: answer, body: parsed as any, text };
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
  return { sb, transport, ...(url ? { url } : {}), api, token, v2, control, advance };
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
