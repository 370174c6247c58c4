// `pix-sandbox/testing`: what a test suite needs (sandbox.md 7). startSandbox() runs a sandbox in this process on
// port 0 and makes the suite its own tenant through POST /_sandbox/accounts; connect() drives a sandbox in another
// process with the same client; startReceiver() is a webhook endpoint that checks signatures.
import { createSandbox, type Sandbox } from '../app';
import type { SandboxOptions } from '../config';
import { connect, SandboxApiError, type Account, type AccountSpec, type Clock, type SandboxClient, type SettleOptions } from './client';

export { connect, SandboxApiError } from './client';
export type * from './client';
export { startReceiver } from './receiver';
export type { Receiver, ReceiverOptions, ReceivedWebhook, WebhookPayload } from './receiver';
export { verifyWebhookSignature } from '../webhooks/signature';
export type { Sandbox, SandboxOptions };

export interface StartSandboxOptions extends SandboxOptions {
  /** The suite's own tenant: the body of POST /_sandbox/accounts (every field optional; default: one FULL_ACCESS credential). */
  account?: AccountSpec;
  /** Listen address (default 127.0.0.1); the port is always 0, any free one. */
  host?: string;
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
  /** Moves the sandbox clock on by `seconds`, running what falls due on the way. */
  advance(seconds: number): Promise<Clock>;
  /** Stops the clock, at `at` when given. */
  freeze(at?: string | number | Date): Promise<Clock>;
  /** Sets the clock to `now` (frozen if asked). */
  setClock(now: string | number | Date, opts?: { frozen?: boolean }): Promise<Clock>;
  /** Closes the server and the sandbox (in-flight attempts are cut short); safe to call twice. */
  stop(): Promise<void>;
  /** Same as stop(). */
  close(): Promise<void>;
}

/** POST /v2/auth with client credentials; returns the access token. */
export async function fetchToken(baseUrl: string, credentials: ClientCredentials): Promise<string> {
  const res = await fetch(`${baseUrl.replace(/\/+$/, '')}/v2/auth`, {
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
  const stop = () => (stopping ??= sandbox.close());
  try {
    const url = await sandbox.listen({ port: 0, host });
    const control = connect(url, sandboxOptions.adminToken === undefined ? {} : { adminToken: sandboxOptions.adminToken });
    const account = await control.accounts.create(spec);
    const first = account.credentials[0];
    if (!first) throw new Error('The tenant has no credential: give the account spec at least one in `credentials`.');
    const credentials = { clientId: first.clientId, clientSecret: first.clientSecret };
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
      token: (other = credentials) => fetchToken(url, other),
      settle: async (opts) => void (await control.settle(opts)),
      advance: (seconds) => control.clock.advance(seconds),
      freeze: (at) => control.clock.freeze(at),
      setClock: (now, opts) => control.clock.set(now, opts),
      stop,
      close: stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
