// The one reader of process.env and argv. createSandbox() takes the same options as plain values, so a user's test
// suite and the CLI configure the sandbox the same way.
import { parseArgs } from 'node:util';
import { sandboxHome } from './tls/home';
import { parseServiceHosts, type Face } from './proxy/hosts';
import { DURATION_HINT, parseDuration } from './lib/duration';

export interface SandboxOptions {
  /** Path of a fixtures JSON file, or the world itself. Default: fixtures/default.json of this package. */
  fixtures?: string | FixturesFile;
  /** Keep state in this JSON file and resume from it on restart. Default: memory only. */
  dataFile?: string;
  /** Seed for ids and generated values, for reproducible runs. */
  seed?: number;
  /** Start the sandbox clock at this instant (ISO string or epoch ms), and freeze it if `freezeClock`. */
  clockStart?: string | number;
  freezeClock?: boolean;
  /** When set, every /_sandbox call needs header X-Sandbox-Token with this value. */
  adminToken?: string;
  /**
   * Host (and optional port/path prefix) written into BR Code locations; no scheme. Default: pix-sandbox.test, which
   * validators accept but no device can fetch; a phone that must fetch the location needs <lan-ip>:<port>.
   */
  publicHost?: string;
  /** ISPB of the sandbox's own PSP, used in e2eIds. A made-up value that is no real bank's. */
  ispb?: string;
  /** Points the fixtures' default webhook endpoint at this URL. */
  webhookUrl?: string;
  /**
   * Deliver webhooks to the sandbox's own listeners too (sandbox.md 11). Default false: a webhook URL that reaches one
   * of them is refused when registered (400 naming the field) and at each delivery attempt.
   */
  allowSelfWebhooks?: boolean;
  /**
   * The vendor word of the webhook delivery headers (X-{word}-Event, ..., User-Agent {word}-Webhook/1.0), so an app
   * that reads the production names verifies sandbox deliveries unchanged. Default: Service (the service document's).
   */
  webhookHeaderWord?: string;
  /** Where log lines go (default: stderr). Pass `() => {}` to silence. */
  log?: (line: string) => void;
  /** fetch used for webhook deliveries (tests can inject one). */
  fetch?: typeof fetch;
  /**
   * Real-time milliseconds a webhook receiver has to answer before the attempt counts as failed. Default 10000 (the
   * service's 10 s); a test of time-outs can use 200 rather than wait 10 s per attempt.
   */
  webhookTimeoutMs?: number;
  /**
   * Test hooks, never for production: `failWrite: { kind: 'request', n: 3 }` makes the 3rd recorded state write of
   * each request throw (fault injection for the all-or-nothing tests). The object is read live, so a test can set and
   * clear it between requests.
   */
  testHooks?: import('./store/unit').UnitHooks;
  /**
   * Records (stored transactions) held before creates answer 507 STORAGE_FULL (sandbox.md 6.1, docs/data.md).
   * Default: from the heap limit (three quarters of it at 2 KB a record).
   */
  maxRecords?: number;
  /**
   * The same budget in bytes (sandbox.md 11, docs/data.md): what the records held may weigh, each BYTES_PER_RECORD
   * (2048) and what its metadata and infoAdicionais add. Give this or maxRecords, not both.
   */
  maxBytes?: number;
  /**
   * Refuse an unknown field of a request to the service's faces with a 400 naming it and the field meant, rather than
   * ignore it with a Sandbox-Warning header (sandbox.md 14; a tenant can ask for it alone with `strict: true`).
   */
  strict?: boolean;
  /**
   * Requests kept in the request log per account (sandbox.md 14, docs/requests.md); 0 turns the log off. Default 1000.
   * The log lives in memory, never in `dataFile`, and reset clears it.
   */
  requestLog?: number;
  /**
   * Delete tenants made through the control API (not the fixtures') once no request has touched them for this long on
   * their clock: a duration like '7d', '12h', '30m' (sandbox.md 6.1, docs/data.md). A tenant's own `retain` overrides it.
   */
  retain?: string;
  /**
   * Delete settled transactions (with their events and deliveries) unchanged for this long, keeping balances: a
   * duration like '30d' (sandbox.md 6.1, docs/data.md).
   */
  retainTransactions?: string;
  /** --workshop: joining a workshop room at /join is open from the start (sandbox.md 5.2). */
  workshop?: boolean;
  /** --workshop-max: attendees a room takes (default 200). */
  workshopMax?: number;
  /** With a data file: fold the journal into the snapshot once it passes this many bytes. Default 8 MiB. */
  compactAfterBytes?: number;
  /** Real-time milliseconds between the keep-alive comments of GET /_sandbox/stream. Default 15000. */
  streamKeepAliveMs?: number;
  /**
   * Real-time milliseconds a connection may wait for what it owes (sandbox.md 11, docs/configuration.md): a request's
   * headers within it of the connection's start (for a tunnel or the service port: the TLS hello within it, then the
   * request's headers within it), the whole request within 5x, at most 5 s between kept-alive requests. A request in
   * flight or an answer being sent (a stream) is never cut. Default 60000, node:http's own limits.
   */
  idleTimeoutMs?: number;
  /**
   * Serve HTTPS on the listener (sandbox.md 8). The certificate is `tlsCertFile`/`tlsKeyFile` when given, else a leaf
   * for localhost, 127.0.0.1, ::1, the public host, the listen address and `tlsNames`, signed by the local CA in `home`.
   */
  https?: boolean;
  /** PEM certificate (chain allowed) to serve under `https`; needs `tlsKeyFile`. */
  tlsCertFile?: string;
  /** Its PEM private key (unencrypted). */
  tlsKeyFile?: string;
  /** More names (DNS or IP) for the local CA's leaf. */
  tlsNames?: string[];
  /** Where the local CA is kept (PIX_SANDBOX_HOME; default ~/.pix-sandbox). */
  home?: string;
  /**
   * Host names answered besides IP literals, localhost, *.localhost and the public host (a compose service name,
   * a LAN name); '*' answers any (turns off the guard against DNS rebinding). sandbox.md 11.
   */
  allowedHosts?: string[];
  /** Origins (http://host:port) whose pages may send state-changing requests, besides the sandbox's own pages. */
  allowedOrigins?: string[];
  /**
   * With `https`: the standard API Pix face (/api-pix/v2) requires a client certificate signed by the local CA and
   * issued to the token's account (POST /_sandbox/accounts/{id}/client-certificates); other routes ask none (sandbox.md 9).
   */
  mtls?: boolean;
  /**
   * Load each route group (v2, v1, /api-pix, /_sandbox, BR Code locations, documents, pages) on the first request
   * under its paths, as the CLI does: a faster start, and `app.routes` lists only the groups loaded so far.
   * Default false: every group is loaded before createSandbox returns.
   */
  lazyRoutes?: boolean;
  /**
   * The names the listener's proxy serves on a face (sandbox.md 13): CONNECT and http:// requests to them reach that
   * face as if sent to the sandbox's own port. Default api.pague.dev -> v1, api-gateway.pague.dev -> v2.
   */
  serviceHosts?: Readonly<Record<string, Face>>;
  /**
   * A second listener, TLS only, on this port of the listen address, that serves the service hosts by the name the
   * client's TLS hello asks for (SNI), as the proxy serves them in a tunnel (sandbox.md 13, containers): the image
   * sets 443, so containers that resolve api.pague.dev to the sandbox (network aliases) reach it at the service's URL.
   */
  servicePort?: number;
  /**
   * Running in the image (SANDBOX_CONTAINER=1, set by the Dockerfile): the banner names the addresses that reach a
   * container and no phone addresses (a container's own addresses are not the LAN's).
   */
  container?: boolean;
}

export interface FixturesFile {
  accounts: Record<string, unknown>[];
}

export interface CliConfig {
  host: string;
  port: number;
  /** --ready-json: one JSON line with the addresses on stdout once listening; the banner goes to stderr. */
  readyJson: boolean;
  options: SandboxOptions;
}

/** The most requests --request-log keeps per account (each entry holds up to two 64 KB bodies). */
export const MAX_REQUEST_LOG = 100_000;

const HELP = `pix-sandbox: a local emulator of a PIX payment-service API

Usage: pix-sandbox [options]
       pix-sandbox ca       print the path of the local CA's certificate (ca.pem), making the CA when missing
       pix-sandbox env      print what an app needs to reach the sandbox at the service's URLs (env --help)

  --host HOST          listen address (HOST, default 127.0.0.1)
  --port PORT          port, 0 = any free port (PORT, default 4747)
  --data FILE          keep state in FILE and resume from it (SANDBOX_DATA)
  --max-records N      records (stored transactions) held before creates answer 507 STORAGE_FULL
                       (SANDBOX_MAX_RECORDS; default from the heap limit, see docs/data.md)
  --max-bytes SIZE     the same budget in bytes of record weight (2048 a record, more with metadata), like
                       64MB or 500000 (SANDBOX_MAX_BYTES); give it or --max-records, not both
  --retain DURATION    delete tenants made through the control API once no request has touched them for
                       DURATION (7d, 12h, 30m...) on their clock; fixture tenants stay (SANDBOX_RETAIN; see docs/data.md)
  --retain-transactions DURATION
                       delete settled transactions unchanged for DURATION, with their events and deliveries;
                       balances stay (SANDBOX_RETAIN_TRANSACTIONS; see docs/data.md)
  --strict             answer an unknown request field with 400 naming it, rather than a Sandbox-Warning
                       header (SANDBOX_STRICT=1; per tenant: strict: true)
  --request-log N      requests kept in the request log per account, 0 = off (SANDBOX_REQUEST_LOG, default 1000;
                       in memory only, see docs/requests.md)
  --workshop           open a workshop room: attendees join at /join and get a tenant each (SANDBOX_WORKSHOP=1)
  --workshop-max N     attendees a workshop room takes (SANDBOX_WORKSHOP_MAX, default 200)
  --fixtures FILE      load this default world instead of fixtures/default.json (SANDBOX_FIXTURES)
  --seed N             seed ids for a reproducible run (SANDBOX_SEED)
  --webhook-url URL    point the default webhook endpoint at URL (SANDBOX_WEBHOOK_URL)
  --allow-self-webhooks
                       deliver webhooks to this sandbox's own ports too (SANDBOX_ALLOW_SELF_WEBHOOKS=1);
                       by default such a URL is refused
  --ready-json         once listening, print one JSON line with the addresses on stdout, the banner on stderr
                       (SANDBOX_READY_JSON=1)
  --public-host HOST   host written into BR Code locations (SANDBOX_PUBLIC_HOST, default pix-sandbox.test;
                       a phone that fetches the location needs <lan-ip>:PORT)
  --webhook-header-word WORD
                       vendor word of the webhook headers: X-WORD-Event, X-WORD-Signature...
                       (SANDBOX_WEBHOOK_HEADER_WORD, default Service)
  --freeze-clock       start with the sandbox clock frozen (SANDBOX_FREEZE_CLOCK=1)
  --https              serve HTTPS on the same port (SANDBOX_HTTPS=1), with a certificate signed by a local CA
                       made on first use in PIX_SANDBOX_HOME (default ~/.pix-sandbox)
  --cert FILE          with --https: serve this PEM certificate instead (SANDBOX_TLS_CERT); needs --key
  --key FILE           its PEM private key (SANDBOX_TLS_KEY)
  --tls-name NAME      one more DNS name or IP for the local CA's certificate; repeatable
                       (SANDBOX_TLS_NAMES, comma-separated)
  --allowed-host NAME  also answer requests for this host name, repeatable (SANDBOX_ALLOWED_HOSTS, comma-separated;
                       IP addresses, localhost and the public host are always answered)
  --allowed-origin URL let pages of this origin (http://host:port) change state, repeatable (SANDBOX_ALLOWED_ORIGINS)
  --mtls               with --https: /api-pix/v2 requires a client certificate of the local CA (SANDBOX_MTLS=1)
  --service-host NAME=FACE
                       serve NAME through the proxy on FACE (v1, v2 or api-pix), repeatable (SANDBOX_SERVICE_HOSTS,
                       comma-separated); api.pague.dev=v1 and api-gateway.pague.dev=v2 always are
  --service-port PORT  also serve the service hosts over TLS on PORT, by the name each client asks for (SNI),
                       with the local CA (SANDBOX_SERVICE_PORT; the container image: 443)
  --idle-timeout DURATION
                       close a connection or tunnel that has not sent its request's headers (or its TLS hello)
                       within DURATION (30s, 2m...); the whole request has 5x, a kept-alive connection waits
                       at most 5 s between requests (SANDBOX_IDLE_TIMEOUT, default 60s; see docs/configuration.md)
  --version, -v        print the version and exit
  --help               this text

SANDBOX_ADMIN_TOKEN  when set, /_sandbox calls need header X-Sandbox-Token
SANDBOX_CONTAINER=1  set by the container image: the banner names what reaches a container
`;

export function readCliConfig(argv: string[], env: NodeJS.ProcessEnv): CliConfig | { help: string } | { version: true } | { error: string } | { ca: string } | { envCommand: string[]; home: string } {
  if (argv[0] === 'env') return { envCommand: argv.slice(1), home: sandboxHome(env) };
  if (argv[0] === 'ca') return argv.length === 1 ? { ca: sandboxHome(env) } : { error: `pix-sandbox ca takes no options (PIX_SANDBOX_HOME says where the CA is).\n\n${HELP}` };
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        data: { type: 'string' },
        'max-records': { type: 'string' },
        'max-bytes': { type: 'string' },
        'request-log': { type: 'string' },
        retain: { type: 'string' },
        'retain-transactions': { type: 'string' },
        workshop: { type: 'boolean' },
        'workshop-max': { type: 'string' },
        fixtures: { type: 'string' },
        seed: { type: 'string' },
        'webhook-url': { type: 'string' },
        'allow-self-webhooks': { type: 'boolean' },
        'public-host': { type: 'string' },
        'webhook-header-word': { type: 'string' },
        'freeze-clock': { type: 'boolean' },
        https: { type: 'boolean' },
        cert: { type: 'string' },
        key: { type: 'string' },
        'tls-name': { type: 'string', multiple: true },
        'ready-json': { type: 'boolean' },
        'allowed-host': { type: 'string', multiple: true },
        'allowed-origin': { type: 'string', multiple: true },
        mtls: { type: 'boolean' },
        strict: { type: 'boolean' },
        'service-host': { type: 'string', multiple: true },
        'service-port': { type: 'string' },
        'idle-timeout': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
      strict: true,
    }));
  } catch (err) {
    return { error: `${(err as Error).message}\n\n${HELP}` };
  }
  if (values.help) return { help: HELP };
  if (values.version) return { version: true };
  const portText = values.port ?? env.PORT ?? '4747';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return { error: `--port must be a whole number from 0 to 65535, got '${portText}'` };
  const seedText = values.seed ?? env.SANDBOX_SEED;
  const seed = seedText === undefined ? undefined : Number(seedText);
  if (seed !== undefined && !Number.isInteger(seed)) return { error: `--seed must be a whole number, got '${seedText}'` };
  const maxRecordsText = values['max-records'] ?? env.SANDBOX_MAX_RECORDS;
  const maxRecords = maxRecordsText === undefined ? undefined : Number(maxRecordsText.replaceAll('_', ''));
  if (maxRecords !== undefined && !(/^[0-9_]+$/.test(maxRecordsText!) && Number.isSafeInteger(maxRecords) && maxRecords >= 1))
    return { error: `--max-records must be a whole number of records of at least 1 (for example 500000 or 500_000), got '${maxRecordsText}'. Leave it out for the default from the heap limit.` };
  const maxBytesText = values['max-bytes'] ?? env.SANDBOX_MAX_BYTES;
  const maxBytes = maxBytesText === undefined ? undefined : byteSize(maxBytesText);
  if (maxBytes !== undefined && !(maxBytes !== null && maxBytes >= 2048))
    return { error: `--max-bytes must be a whole number of bytes of at least 2048 (one record), with an optional KB, MB or GB (of 1024), like 64MB or 500_000, got '${maxBytesText}'. Leave it out for the budget of --max-records or the heap limit.` };
  if (maxBytes !== undefined && maxRecords !== undefined) return { error: '--max-records and --max-bytes set the same budget: give one of them.' };
  const requestLogText = values['request-log'] ?? env.SANDBOX_REQUEST_LOG;
  const requestLog = requestLogText === undefined ? undefined : Number(requestLogText.replaceAll('_', ''));
  if (requestLog !== undefined && !(/^[0-9_]+$/.test(requestLogText!) && Number.isSafeInteger(requestLog) && requestLog <= MAX_REQUEST_LOG))
    return { error: `--request-log must be a whole number of requests per account from 0 (off) to ${MAX_REQUEST_LOG}, got '${requestLogText}'. Leave it out for the default of 1000.` };
  const retain = values.retain ?? env.SANDBOX_RETAIN;
  const retainTransactions = values['retain-transactions'] ?? env.SANDBOX_RETAIN_TRANSACTIONS;
  for (const [flag, text] of [['--retain', retain], ['--retain-transactions', retainTransactions]] as const)
    if (text !== undefined && parseDuration(text) === null) return { error: `${flag} must be ${DURATION_HINT}, got '${text}'. Leave it out to keep everything.` };
  const workshopMaxText = values['workshop-max'] ?? env.SANDBOX_WORKSHOP_MAX;
  const workshopMax = workshopMaxText === undefined ? undefined : Number(workshopMaxText);
  if (workshopMax !== undefined && !(/^[0-9]+$/.test(workshopMaxText!) && Number.isSafeInteger(workshopMax) && workshopMax >= 1))
    return { error: `--workshop-max must be a whole number of attendees of at least 1 (for example 30), got '${workshopMaxText}'. Leave it out for 200.` };
  const headerWord = values['webhook-header-word'] ?? env.SANDBOX_WEBHOOK_HEADER_WORD;
  if (headerWord !== undefined && !/^[A-Za-z][A-Za-z0-9-]{0,31}$/.test(headerWord))
    return { error: `--webhook-header-word must be 1 to 32 letters, digits and dashes starting with a letter (it names headers like X-WORD-Event), got '${headerWord}'` };
  const servicePortText = values['service-port'] ?? env.SANDBOX_SERVICE_PORT;
  const servicePort = servicePortText === undefined || servicePortText === '' ? undefined : Number(servicePortText);
  if (servicePort !== undefined && !(Number.isInteger(servicePort) && servicePort >= 0 && servicePort <= 65535))
    return { error: `--service-port must be a whole number from 0 to 65535 (443 serves https://api.pague.dev as is), got '${servicePortText}'` };
  const idleText = values['idle-timeout'] ?? env.SANDBOX_IDLE_TIMEOUT;
  const idleTimeoutMs = idleText === undefined || idleText === '' ? undefined : parseDuration(idleText);
  if (idleTimeoutMs === null) return { error: `--idle-timeout must be ${DURATION_HINT}, got '${idleText}'. Leave it out for 60s.` };
  const serviceHosts = parseServiceHosts(listOption(values['service-host'], env.SANDBOX_SERVICE_HOSTS));
  if ('error' in serviceHosts) return serviceHosts;
  const options: SandboxOptions = {
    dataFile: values.data ?? env.SANDBOX_DATA,
    ...(maxRecords !== undefined ? { maxRecords } : {}),
    ...(maxBytes !== undefined ? { maxBytes } : {}),
    strict: values.strict ?? env.SANDBOX_STRICT === '1',
    ...(requestLog !== undefined ? { requestLog } : {}),
    ...(retain !== undefined ? { retain } : {}),
    ...(retainTransactions !== undefined ? { retainTransactions } : {}),
    workshop: values.workshop ?? env.SANDBOX_WORKSHOP === '1',
    ...(workshopMax !== undefined ? { workshopMax } : {}),
    fixtures: values.fixtures ?? env.SANDBOX_FIXTURES,
    seed,
    webhookUrl: values['webhook-url'] ?? env.SANDBOX_WEBHOOK_URL,
    allowSelfWebhooks: values['allow-self-webhooks'] ?? env.SANDBOX_ALLOW_SELF_WEBHOOKS === '1',
    publicHost: values['public-host'] ?? env.SANDBOX_PUBLIC_HOST,
    freezeClock: values['freeze-clock'] ?? env.SANDBOX_FREEZE_CLOCK === '1',
    adminToken: env.SANDBOX_ADMIN_TOKEN || undefined,
    https: values.https ?? env.SANDBOX_HTTPS === '1',
    tlsCertFile: values.cert ?? (env.SANDBOX_TLS_CERT || undefined),
    tlsKeyFile: values.key ?? (env.SANDBOX_TLS_KEY || undefined),
    tlsNames: values['tls-name'] ?? env.SANDBOX_TLS_NAMES?.split(',').map((n) => n.trim()).filter(Boolean),
    home: sandboxHome(env),
    allowedHosts: listOption(values['allowed-host'], env.SANDBOX_ALLOWED_HOSTS),
    allowedOrigins: listOption(values['allowed-origin'], env.SANDBOX_ALLOWED_ORIGINS),
    ...(headerWord ? { webhookHeaderWord: headerWord } : {}),
    mtls: values.mtls ?? env.SANDBOX_MTLS === '1',
    serviceHosts: serviceHosts.hosts,
    ...(servicePort !== undefined ? { servicePort } : {}),
    ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}),
    container: env.SANDBOX_CONTAINER === '1',
  };
  if (!options.https && (options.tlsCertFile || options.tlsKeyFile || options.tlsNames?.length))
    return { error: '--cert, --key and --tls-name only apply with --https (SANDBOX_HTTPS=1): add --https.' };
  if (!options.https && options.mtls) return { error: '--mtls (SANDBOX_MTLS=1) needs --https (SANDBOX_HTTPS=1): client certificates are asked in the TLS handshake.' };
  const readyJson = values['ready-json'] ?? env.SANDBOX_READY_JSON === '1';
  return Object.freeze({ host: values.host ?? env.HOST ?? '127.0.0.1', port, readyJson, options: Object.freeze(options) });
}

/** `500_000`, `64MB`, `2GB` (units of 1024) as bytes; null when it is not such a size. */
function byteSize(text: string): number | null {
  const m = /^([0-9][0-9_]*)\s*(KB|MB|GB)?$/i.exec(text.trim());
  if (!m) return null;
  const n = Number(m[1]!.replaceAll('_', '')) * 1024 ** ({ kb: 1, mb: 2, gb: 3 }[m[2]?.toLowerCase() as 'kb'] ?? 0);
  return Number.isSafeInteger(n) ? n : null;
}

/** A repeatable flag and its comma-separated variable: both count. */
function listOption(flags: string[] | undefined, envValue: string | undefined): string[] {
  return [...(flags ?? []), ...(envValue ?? '').split(',')].map((v) => v.trim()).filter((v) => v !== '');
}
