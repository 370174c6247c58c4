// `pix-sandbox/testing`: what a test suite needs (sandbox.md 7). startSandbox() runs a sandbox in this process on
// port 0 and makes the suite its own tenant through POST /_sandbox/accounts; connect() drives a sandbox in another
// process with the same client; startReceiver() is a webhook endpoint that checks signatures.
import { createSandbox, type Sandbox } from '../app';
import type { SandboxOptions } from '../config';
import { connect, SandboxApiError, type Account, type AccountSpec, type Clock, type RequestEntry, type RequestQuery, type SandboxClient, type SettleOptions } from './client';
import { fetchTrusting } from './https-fetch';
import { interceptBases, type Interception } from './intercept';

export { connect, SandboxApiError } from './client';
export type * from './client';
export { startReceiver } from './receiver';
export type { Receiver, ReceiverOptions, ReceivedWebhook, WebhookPayload } from './receiver';
export { verifyWebhookSignature } from '../webhooks/signature';
export type { Interception } from './intercept';
export type { Sandbox, SandboxOptions };

export interface StartSandboxOptions extends SandboxOptions {
  /** The suite's own tenant: the body of POST /_sandbox/accounts (every field optional; default: one FULL_ACCESS credential). */
  account?: AccountSpec;
  /** Listen address (default 127.0.0.1); the port is always 0, any free one. */
  host?: string;
}

/** Base URLs whose requests `intercept()` answers in process: the v2 API's and/or the v1 API's. */
export interface InterceptBases {
  /** e.g. https://api.example.com/v2: answered by the sandbox's /v2 routes. */
  v2?: string | URL;
  /** e.g. https://api.pague.dev/v1 (the official Node SDK's fixed base): answered by the sandbox's /v1 routes. */
  v1?: string | URL;
}

/** Client credentials of the tenant: send them to POST /v2/auth as `client_id` and `client_secret`. */
export interface ClientCredentials {
  /** `client_id` of POST /v2/auth. */
  clientId: string;
  /** `client_secret` of POST /v2/auth. */
  clientSecret: string;
}

export interface TestSandbox {
  /** Base URL, e.g. http://127.0.0.1:39123 */
  readonly url: string;
  /** `{base_url}` of the v2 API: `${url}/v2` */
  readonly v2Url: string;
  /** `{base_url_v1}`: `${url}/v1` */
  readonly v1Url: string;
  /** `${url}/_sandbox` */
  readonly controlUrl: string;
  /** The suite's tenant. */
  readonly accountId: string;
  /** The whole answer of POST /_sandbox/accounts (credentials, API keys, sub-accounts, webhooks with their secrets). */
  readonly account: Account;
  /** The tenant's first credential. */
  readonly credentials: ClientCredentials;
  /** The tenant's first v1 API key (one is made when the spec gives none). */
  readonly apiKey: string | undefined;
  /** Typed client of every /_sandbox route. */
  readonly control: SandboxClient;
  /** The in-process sandbox (its app, deps, reset, close). */
  readonly sandbox: Sandbox;
  /** A fresh bearer token from POST /v2/auth (default: the tenant's first credential). */
  token(credentials?: ClientCredentials): Promise<string>;
  /** Resolves once nothing is due and no delivery attempt is in flight (POST /_sandbox/settle). */
  settle(opts?: SettleOptions): Promise<void>;
  /**
   * The tenant's request log, newest first (docs/requests.md): what the app sent and what it got, secrets masked.
   * One page (`limit`, default 50); filter by `status` ('4xx', 201, 'failed'), `method`, `path` prefix, `face`, `since`.
   */
  requests(filter?: RequestQuery): Promise<RequestEntry[]>;
  /**
   * Moves the tenant's clock on by `seconds`, running what falls due on the way: its own when the account spec gave it
   * `clock` (nobody else's work runs), else the sandbox clock. The same for freeze() and setClock().
   */
  advance(seconds: number): Promise<Clock>;
  /** Stops the clock, at `at` when given. */
  freeze(at?: string | number | Date): Promise<Clock>;
  /** Sets the clock to `now` (frozen if asked). */
  setClock(now: string | number | Date, opts?: { frozen?: boolean }): Promise<Clock>;
  /**
   * Under `https: true`: the PEM of the local CA that signed the sandbox's certificate (give it as `ca` to node:https,
   * or its file `caPath` to NODE_EXTRA_CA_CERTS). Undefined over plain HTTP, or when tlsCertFile/tlsKeyFile bring one.
   */
  readonly ca: string | undefined;
  /** Path of the local CA's ca.pem (in PIX_SANDBOX_HOME), under `https: true`. */
  readonly caPath: string | undefined;
  /** fetch for this sandbox's URLs: under `https: true` it trusts `ca` (no redirects followed); else the global fetch. */
  readonly fetch: typeof fetch;
  /**
   * While active, this process's requests to these base URLs (global fetch, node:http/node:https clients such as axios,
   * the service's SDKs) are answered by this sandbox's routes in process (no port, no DNS); every other request goes
   * out untouched. Throws on a URL that is not absolute http(s), or one already intercepted. `stop()` restores it.
   */
  intercept(bases: InterceptBases): Interception;
  /** Closes the server and the sandbox (in-flight attempts are cut short); safe to call twice. */
  stop(): Promise<void>;
  /** Same as stop(). */
  close(): Promise<void>;
}

/** POST /v2/auth with client credentials; returns the access token. */
export async function fetchToken(baseUrl: string, credentials: ClientCredentials, fetchFn: typeof fetch = globalThis.fetch): Promise<string> {
  const res = await fetchFn(`${baseUrl.replace(/\/+$/, '')}/v2/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: credentials.clientId, client_secret: credentials.clientSecret }),
  });
  const body = (await res.json().catch(() => undefined)) as { access_token?: string } | undefined;
  if (!res.ok || typeof body?.access_token !== 'string') throw new SandboxApiError('POST', '/v2/auth', res.status, body);
  return body.access_token;
}

/** Starts a sandbox in this process on port 0 and creates the suite's own tenant. */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<TestSandbox> {
  const { account: spec = {}, host = '127.0.0.1', ...sandboxOptions } = options;
  const sandbox = await createSandbox(sandboxOptions);
  let stopping: Promise<void> | undefined;
  const interceptions = new Set<Interception>();
  const stop = () =>
    (stopping ??= (async () => {
      for (const i of interceptions) i.restore();
      await sandbox.close();
    })());
  try {
    const url = await sandbox.listen({ port: 0, host });
    const ca = sandbox.ca;
    const fetchFn: typeof fetch = ca ? fetchTrusting(ca.pem) : (input, init) => globalThis.fetch(input, init);
    const control = connect(url, { fetch: fetchFn, ...(sandboxOptions.adminToken === undefined ? {} : { adminToken: sandboxOptions.adminToken }) });
    const account = await control.accounts.create(spec);
    const first = account.credentials[0];
    if (!first) throw new Error('The tenant has no credential: give the account spec at least one in `credentials`.');
    const credentials = { clientId: first.clientId, clientSecret: first.clientSecret };
    // A tenant given a clock of its own moves it alone (sandbox.md 4.6); otherwise the sandbox clock, as before.
    const clock = spec.clock === undefined ? control.clock : control.clock.of(account.id);
    return {
      url,
      v2Url: `${url}/v2`,
      v1Url: `${url}/v1`,
      controlUrl: `${url}/_sandbox`,
      accountId: account.id,
      account,
      credentials,
      apiKey: account.apiKeys[0]?.key,
      control,
      sandbox,
      ca: ca?.pem,
      caPath: ca?.path,
      fetch: fetchFn,
      intercept(bases) {
        const faces = (['v2', 'v1'] as const).filter((face) => bases[face] !== undefined);
        const interception = interceptBases(
          faces.map((face) => ({ face, base: bases[face]!, target: `${url}/${face}` })),
          (request) => sandbox.app.fetch(request),
        );
        interceptions.add(interception);
        return {
          restore() {
            interception.restore();
            interceptions.delete(interception);
          },
        };
      },
      token: (other = credentials) => fetchToken(url, other, fetchFn),
      settle: async (opts) => void (await control.settle(opts)),
      requests: async (filter) => (await control.requests.list(account.id, filter)).items,
      advance: (seconds) => clock.advance(seconds),
      freeze: (at) => clock.freeze(at),
      setClock: (now, opts) => clock.set(now, opts),
      stop,
      close: stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
