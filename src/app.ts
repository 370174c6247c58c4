// createSandbox(options): builds the whole emulator in process (state, clock, tokens, scheduler, routes) and returns
// the Hono app with a handle. It listens nowhere until `listen()` is called; the CLI is a thin wrapper over it.
import { createWorkshopRoom } from './domain/workshop';
import { leaveRoom, newRoomCode } from './services/workshop';
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { version } from '../package.json';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { createClock } from './lib/clock';
import { createIds } from './lib/ids';
import { createBus } from './lib/bus';
import { openStore } from './store/store';
import { BYTES_PER_RECORD, fullNote } from './services/capacity';
import { currentUnit } from './store/unit';
import { createScheduler } from './services/scheduler';
import { noteHolder, type HolderKind } from './services/holders';
import { createClocks, isoOf } from './services/clocks';
import { createTokens, JWKS_PATH } from './services/tokens';
import { createAccount } from './services/accounts';
import type { Deps } from './deps';
import type { FixturesFile, SandboxOptions } from './config';
import { JSON_BODY_PREFIXES, jsonBody } from './wire/middleware/body';
import { FAULT_PREFIXES, Faults, injectFaults } from './wire/middleware/faults';
import { doors, hostDoor, hostNameOf, setAnswerHeaders } from './wire/middleware/doors';
import { earlyHealth } from './control/early-health';
import { headerRecordFromNode } from './wire/middleware/headers';
import { errorName, sendError, toSandboxError } from './wire/errors';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Env } from './wire/env';
import { answerHeaderOf } from './wire/answer-header';
import { locationPath, registerChargeJobs } from './services/charges';
import { registerRecJobs } from './services/recs';
import { registerCobRJobs } from './services/cobrs';
import { buildDynamicBrCode } from './pix';
import { holdQrThread } from './services/qr-images';
import { registerRefundJobs } from './services/refunds';
import { registerLoteJobs } from './services/lotes-cobv';
import { registerWithdrawalJobs } from './services/withdrawals';
import { registerMagicJobs } from './services/magic';
import { registerPaymentLinkJobs } from './services/payment-links';
import { registerStaticQrActions } from './services/static-qr';
import { lanUrls, listen, listenServiceTls, type Listening } from './server';
import { sandboxHome } from './tls/home';
import { registerDeliveryJobs } from './webhooks/dispatcher';
import { RequestUnitRouter } from './wire/request-unit';
import { mountRouteGroups } from './route-groups';
import { routeMiss } from './wire/route-lessons';
import { healthAnswer } from './control/health';
import { DEFAULT_FIXTURES_CHECKED } from './fixtures-checked';
import { globalFetch } from './webhooks/transport';
import { createOwnListeners, selfWebhookHint } from './webhooks/own-listeners';
import { emptyState } from './store/state';
import { DEFAULT_SERVICE_HOSTS } from './proxy/hosts';
import { lazyProxy } from './proxy/lazy';
import { DEFAULT_IDLE_MS } from './lib/half-open';
import { proxiedName } from './proxy/marks';
import { createRequestLog, DEFAULT_REQUEST_LOG_SIZE } from './services/request-log';
import { createRetention } from './services/retention';
import { DURATION_HINT, formatDuration, parseDuration } from './lib/duration';
import { requestRecorder } from './wire/middleware/request-log';
import { warningsOf } from './wire/request-warnings';
import { noteTrailingSlash } from './wire/trailing-slash';

// One source of truth: package.json's version, inlined by esbuild at build time (only this field of it).
export const VERSION: string = version;
export const DEFAULT_ISPB = '99999004'; // made up: no real institution has it
/**
 * Host of the BR Code locations (26-25) unless --public-host says otherwise: a dotted name with no port, under the
 * reserved .test domain (RFC 2606), because validators refuse a location with a port (brazilian-utils' host rule is
 * dotted labels then a path) and the loopback address means nothing on a payer's device anyway. The sandbox serves
 * /pix/qr/<id> whatever host the code carries.
 */
export const DEFAULT_PUBLIC_HOST = 'pix-sandbox.test';
const DEFAULT_FIXTURES = new URL('../fixtures/default.json', import.meta.url);

/**
 * The sandbox's HTTP app (a Hono app inside), typed by what a caller uses, so the published types name no package:
 * `request(path, init)` answers in process (no port), `fetch(request)` is the handler a server or interceptor calls.
 */
export interface SandboxApp {
  request(input: string | URL | Request, init?: RequestInit): Response | Promise<Response>;
  fetch(request: Request): Response | Promise<Response>;
  /** Every registered route (method and path), middleware included. */
  readonly routes: readonly { method: string; path: string }[];
}

export interface Sandbox {
  app: SandboxApp;
  deps: Deps;
  /** True when the state was loaded from `dataFile` (a restart), false when it was made from the fixtures. */
  readonly resumed: boolean;
  /** Base URL once listening (e.g. http://127.0.0.1:4747), else undefined. */
  readonly url: string | undefined;
  listen(opts?: { port?: number; host?: string }): Promise<string>;
  /**
   * With `https`, once listening: the local CA that signed the listener's certificate (`path` of its ca.pem, and the
   * PEM itself); undefined with a brought certificate (tlsCertFile/tlsKeyFile) or without `https`.
   */
  readonly ca: { path: string; pem: string } | undefined;
  /** With `servicePort`, once listening: the service port's address (https://host:port), else undefined. */
  readonly serviceUrl: string | undefined;
  /** With `servicePort`, when it could not be listened on: why (the sandbox serves on without it). */
  readonly serviceError: string | undefined;
  /** Back to the fixtures (same as POST /_sandbox/reset); the clock is kept unless `clock: true`. */
  reset(opts?: { clock?: boolean }): Promise<void>;
  /**
   * Runs what is due now and resolves once no webhook attempt is in flight: after a change (a charge paid), await it
   * to know its deliveries were attempted. Retries wait for their time on the sandbox clock.
   */
  settle(): Promise<void>;
  close(): Promise<void>;
}

function readFixtures(fixtures: SandboxOptions['fixtures']): { file: FixturesFile; text?: string } {
  if (fixtures && typeof fixtures === 'object') return { file: fixtures };
  const source = fixtures ?? DEFAULT_FIXTURES;
  let text: string;
  try {
    text = readFileSync(source, 'utf8');
  } catch (err) {
    throw new Error(`Cannot read the fixtures file ${String(source)}: ${(err as Error).message}`);
  }
  try {
    return { file: JSON.parse(text) as FixturesFile, text };
  } catch (err) {
    throw new Error(`The fixtures file ${String(source)} is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * The fixtures' schema, imported when a start needs it (not with the app's code): the schema library extends zod with
 * .openapi() when it is evaluated, so it goes first (a bundle's chunks do not promise that order).
 */
async function fixturesSchema() {
  await import('@hono/zod-openapi');
  return (await import('./control/schemas')).FixturesSchema;
}
type CheckedFixtures = Awaited<ReturnType<typeof fixturesSchema>>['_output'];

/**
 * What turns the fixtures into account specs at each start and reset: the build's own check of the default file when
 * this is that file, unchanged (no schema library at start), else the schema (a bad file stops the start here).
 */
async function fixturesChecker({ file, text }: { file: FixturesFile; text?: string }): Promise<() => CheckedFixtures> {
  if (DEFAULT_FIXTURES_CHECKED && text === DEFAULT_FIXTURES_CHECKED.text) {
    const { parsed } = DEFAULT_FIXTURES_CHECKED;
    return () => JSON.parse(parsed) as CheckedFixtures;
  }
  const FixturesSchema = await fixturesSchema();
  return () => {
    // jitless: parsed once per start or reset, where compiling zod's fast path for each nested object costs more than it saves.
    const parsed = FixturesSchema.safeParse(file, { jitless: true });
    if (!parsed.success) throw new Error(`The fixtures do not match the account spec of POST /_sandbox/accounts: ${parsed.error.message}`);
    return parsed.data;
  };
}

function loadFixtures(deps: Deps, fixtures: () => CheckedFixtures, webhookUrl?: string) {
  fixtures().accounts.forEach((spec, i) => {
    const account = createAccount(deps, spec);
    account.fixture = true; // retention never deletes the default world (services/retention.ts)
    // --webhook-url points the default world's first endpoint somewhere.
    if (i === 0 && webhookUrl && account.webhooks[0]) account.webhooks[0].url = webhookUrl;
  });
}

/**
 * The fixtures' webhook URLs (and --webhook-url) are the operator's and stored as given, before the sandbox knows its
 * ports; one that reaches the sandbox itself is said once listening, as its deliveries will be refused.
 */
function warnSelfFixtures(deps: Deps) {
  for (const account of Object.values(deps.store.state.accounts)) {
    if (!account.fixture) continue;
    for (const w of account.webhooks) {
      const reason = w.url === null ? undefined : deps.listeners.check(w.url);
      if (reason) deps.log(`pix-sandbox: webhook endpoint ${w.id} of the fixture account ${account.id} (${w.url}) ${selfWebhookHint(reason)}. Its deliveries are refused until then.`);
    }
  }
}

/** Fails fast when a host cannot stand in a BR Code location (26-25: no scheme, a dotted host, at most 77 chars). */
function checkPublicHost(host: string): string {
  try {
    buildDynamicBrCode({ location: `${host}${locationPath('00000000-0000-4000-8000-000000000000')}`, merchantName: 'x', merchantCity: 'x', amountCents: 100 });
  } catch (err) {
    throw new Error(`publicHost '${host}' cannot be used in BR Code locations (${(err as Error).message}). Give a dotted host without scheme, at most 33 characters, like ${DEFAULT_PUBLIC_HOST} or 192.168.0.10:4747.`);
  }
  return host;
}

/** A charge's default life (expiresIn on v2 and v1): --retain-transactions shorter than it is said at start. */
const DAY_MS = 86_400_000;

/** A duration option (retain, retainTransactions) in ms, or undefined when not given; fails fast on a bad one. */
function durationOption(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseDuration(text);
  if (ms === null) throw new Error(`${name} must be ${DURATION_HINT}, got ${JSON.stringify(text)}.`);
  return ms;
}

/** Fails fast on a webhook header word that cannot stand in a header name. */
function checkHeaderWord(word: string): string {
  if (!/^[A-Za-z][A-Za-z0-9-]{0,31}$/.test(word)) throw new Error(`webhookHeaderWord '${word}' cannot name headers (X-${word}-Event): give 1 to 32 letters, digits and dashes starting with a letter, like Service.`);
  return word;
}

export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const ids = createIds(options.seed);
  if (options.maxRecords !== undefined && !(Number.isSafeInteger(options.maxRecords) && options.maxRecords >= 1))
    throw new Error(`maxRecords (--max-records) must be a whole number of records of at least 1, got ${JSON.stringify(options.maxRecords)}; leave it out for the default from the heap limit.`);
  if (options.maxBytes !== undefined && !(Number.isSafeInteger(options.maxBytes) && options.maxBytes >= BYTES_PER_RECORD))
    throw new Error(`maxBytes (--max-bytes) must be a whole number of bytes of at least ${BYTES_PER_RECORD} (one record), got ${JSON.stringify(options.maxBytes)}; leave it out for the budget from maxRecords or the heap limit.`);
  if (options.maxBytes !== undefined && options.maxRecords !== undefined) throw new Error('Give maxRecords (--max-records) or maxBytes (--max-bytes), not both: they set the same budget.');
  const requestLogSize = options.requestLog ?? DEFAULT_REQUEST_LOG_SIZE;
  if (!(Number.isSafeInteger(requestLogSize) && requestLogSize >= 0))
    throw new Error(`requestLog (--request-log) must be a whole number of requests per account, 0 for off, got ${JSON.stringify(options.requestLog)}.`);
  const retainMs = durationOption('retain', options.retain);
  const retainTransactionsMs = durationOption('retainTransactions', options.retainTransactions);
  const { store, loaded } = await openStore(options.dataFile, { hooks: options.testHooks, log, compactAfterBytes: options.compactAfterBytes });
  // Date.now is read at each call, not captured: a test that fakes Date moves real time (a token's 300 s) without a sleep.
  const clock = createClock(() => Date.now(), store.state.clock);
  store.bindClock(clock);
  /** The clock as the options start it: at clockStart, or real time; frozen there with freezeClock. */
  const startClock = () => {
    const start = options.clockStart === undefined ? clock.realMs() : typeof options.clockStart === 'number' ? options.clockStart : Date.parse(options.clockStart);
    clock.set(start, options.freezeClock ?? false);
  };
  if (!loaded) startClock();
  const clocks = createClocks(store, clock, log);
  const requestLog = createRequestLog(requestLogSize);
  const scheduler = createScheduler(store, clocks, ids, log);
  const tokens = await createTokens(store, clock);
  const fixtures = await fixturesChecker(readFixtures(options.fixtures));
  // Tenants of a data file written before they carried `fixture`: the fixture world's ids say which are its.
  const fixtureIds = new Set<string>(loaded ? fixtures().accounts.flatMap((a) => (a.id === undefined ? [] : [a.id])) : []);
  const publicHost = options.publicHost === undefined ? DEFAULT_PUBLIC_HOST : checkPublicHost(options.publicHost);
  // Every part of deps but retention, which is made of them just below.
  const deps = {
    store,
    clock,
    clocks,
    ids,
    log,
    // Without a fetch of the caller's, deliveries go out through node:http (webhooks/transport.ts).
    fetch: options.fetch ?? globalFetch,
    scheduler,
    tokens,
    workshop: createWorkshopRoom({ ...(options.workshop ? { code: newRoomCode() } : {}), ...(options.workshopMax !== undefined ? { max: options.workshopMax } : {}) }),
    bus: createBus((err) => log(`live stream listener failed: ${(err as Error)?.stack ?? String(err)}`), undefined, (send) => store.afterCommit(send)),
    requestLog,
    noteHolder: (kind: HolderKind, id: string, accountId: string) => noteHolder(store, kind, id, accountId),
    listeners: createOwnListeners({ allowSelf: options.allowSelfWebhooks ?? false, publicHost, tlsNames: options.tlsNames ?? [] }),
    settings: {
      publicHost,
      ispb: options.ispb ?? DEFAULT_ISPB,
      adminToken: options.adminToken,
      webhookUrl: options.webhookUrl,
      ...(options.webhookHeaderWord ? { webhookHeaderWord: checkHeaderWord(options.webhookHeaderWord) } : {}),
      home: options.home ?? sandboxHome(),
      mtls: !!(options.https && options.mtls),
      ...(options.maxRecords !== undefined ? { maxRecords: options.maxRecords } : {}),
      ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
      ...(options.strict ? { strict: true } : {}),
      ...(retainMs !== undefined ? { retainMs } : {}),
      ...(retainTransactionsMs !== undefined ? { retainTransactionsMs } : {}),
    },
  } as Deps;
  deps.retention = createRetention(deps, fixtureIds);
  registerChargeJobs(deps);
  const deliveries = registerDeliveryJobs(deps, options.webhookTimeoutMs);
  registerRefundJobs(deps);
  registerLoteJobs(deps);
  registerWithdrawalJobs(deps);
  registerMagicJobs(deps);
  registerPaymentLinkJobs(deps);
  registerStaticQrActions(deps);
  registerRecJobs(deps);
  registerCobRJobs(deps);
  if (!loaded) await store.atomically('system', () => loadFixtures(deps, fixtures, options.webhookUrl)).durable;
  const full = fullNote(deps);
  if (full) log(`pix-sandbox: ${options.dataFile ?? 'the state'}: ${full}`);

  if (retainTransactionsMs !== undefined && retainTransactionsMs < DAY_MS)
    log(`pix-sandbox: --retain-transactions ${formatDuration(retainTransactionsMs)} is shorter than a charge's default life (a day): pending charges are kept until they are paid, expire or are cancelled, and go once settled for ${formatDuration(retainTransactionsMs)}.`);

  const faults = new Faults();
  const resetState = () => {
    const signingKey = store.state.signingKey;
    store.replace({ ...emptyState(), signingKey, clock: clock.snapshot() });
    loadFixtures(deps, fixtures, options.webhookUrl);
  };
  const reset = async (opts: { clock?: boolean } = {}) => {
    faults.rules = [];
    deps.requestLog.clear();
    deps.retention.clear();
    // The clock is kept unless asked (sandbox.md 4.7); then it goes back to where start-up put it.
    const resetAll = () => {
      if (opts.clock) startClock();
      resetState();
      // The attendees' tenants are gone with the rest: the room (open or not, its code) keeps no one whose tenant is gone.
      const emptyRoom = () => leaveRoom(deps.workshop, 'reset');
      if (!store.afterCommit(emptyRoom)) emptyRoom();
    };
    // Part of the request's unit when called by POST /_sandbox/reset; a unit of its own when called in process.
    if (currentUnit()) resetAll();
    else await store.atomically('system', resetAll).durable;
    deps.bus.publish({ kind: 'reset' });
    if (opts.clock) deps.bus.publish({ kind: 'clock', now: clock.iso(), frozen: clock.frozen });
  };

  // Route groups join the app as requests need them (lazyRoutes), after it has matched others: a router that takes that,
  // and starts each handler in the request's unit of work (wire/request-unit.ts).
  // strict: false: one trailing slash is the route without it (wire/trailing-slash.ts).
  const app = new Hono<Env>({ router: new RequestUnitRouter(), strict: false });
  /** An answer's time: on the clock of the tenant that called (once its guard knew it), else on the sandbox clock. */
  const timeOf = (c: Context<Env>) => {
    const caller = c.get('caller') as Env['Variables']['caller'] | undefined;
    return caller ? isoOf(deps, caller.account) : clock.iso();
  };
  /** The request's trace id: the first middleware, which every request passes, gives it from the request's number. */
  const traceIdOf = (c: Context<Env>): string => c.get('traceId');
  const answerError = (err: Error, c: Context<Env>) => {
    const error = toSandboxError(err, log);
    const timestamp = timeOf(c);
    // POST /v2/auth keeps the service's small error body.
    if (c.req.path === '/v2/auth') return c.json({ error: errorName(error.status), message: error.message }, error.status as ContentfulStatusCode);
    return sendError(c, error, timestamp, traceIdOf(c));
  };
  app.onError(answerError);
  app.notFound((c) => {
    // The face's nearest routes, or the methods its path takes (wire/route-lessons.ts; sandbox.md 14).
    const err = routeMiss(app.routes, c.req.method, c.req.path);
    if (Array.isArray(err.details.allow)) c.header('Allow', err.details.allow.join(', '));
    return sendError(c, err, clock.iso(), traceIdOf(c));
  });

  const allowedHosts = [...(options.allowedHosts ?? []), hostNameOf(deps.settings.publicHost), ...(options.tlsNames ?? [])];
  // The service's names are answered only through the proxy (sandbox.md 13): marked there, read by the doors.
  const checkDoors = doors({ allowedHosts, allowedOrigins: options.allowedOrigins ?? [], proxiedName });
  // The request log (sandbox.md 14) records each request of its faces once answered.
  const recorder = requestLogSize > 0 ? requestRecorder(deps, deps.requestLog, warningsOf) : undefined;
  const first: MiddlewareHandler<Env> = async (c, next) => {
    // Every request is numbered as it starts, the log on or off: its trace id is made from the number, and the log
    // keeps its entry under it.
    const seq = deps.requestLog.nextSeq();
    const traceId = deps.requestLog.traceIdOf(seq);
    c.set('traceId', traceId);
    const face = recorder?.faceOf(c.req.path);
    const started = face ? performance.now() : 0;
    try {
      // Every answer's own headers: the trace id and the page headers (sandbox.md 11). On a real port they go on Node's
      // response, which merges them into whatever head the route sends; through Hono's c.header() every answer would
      // carry a WHATWG Headers object, built and read back per request.
      setAnswerHeaders(answerHeaderOf(c), traceId);
      headerRecordFromNode(c.req, (c.env as { incoming?: IncomingMessage } | undefined)?.incoming);
      checkDoors(c); // Host and Origin, before any route and before the request's unit of work (sandbox.md 11)
      noteTrailingSlash(c);
      void scheduler.catchUp();
      // The request is one unit of work: an answer that is an error changed nothing; one that reports a change is sent
      // once the change is on disk (the clock's position is saved with it).
      // Reads change nothing and run on the raw state (as fast as before); the test suite checks that with strictReads.
      // A story is a script of steps, each its own unit (services/stories.ts), so the console sees it step by step.
      const reading = c.req.method === 'GET' || c.req.method === 'HEAD';
      if ((reading && !store.hooks.strictReads) || (c.req.method === 'POST' && c.req.path.startsWith('/_sandbox/stories/'))) await next();
      else {
        const unit = store.begin(reading ? 'read' : 'request');
        c.set('unit', unit);
        try {
          await store.run(unit, next);
        } catch (err) {
          store.rollback(unit);
          throw err;
        }
        if (c.error || c.res.status >= 400) store.rollback(unit);
        else {
          try {
            await store.commit(unit);
          } catch (err) {
            c.res = sendError(c, toSandboxError(err, log), timeOf(c), traceId);
          }
        }
      }
    } catch (err) {
      // What this middleware throws itself (a Host the doors refuse) is answered here as Hono would, for the log to
      // record the answer; what a later layer throws Hono has already answered.
      if (!face || !(err instanceof Error)) throw err;
      c.error = err;
      c.res = await answerError(err, c);
    }
    if (face) return recorder!.record(c, face, seq, started);
  };
  app.use('*', first);
  for (const prefix of FAULT_PREFIXES) app.use(`${prefix}*`, injectFaults(deps, faults));
  for (const prefix of JSON_BODY_PREFIXES) app.use(`${prefix}*`, jsonBody);

  app.get(JWKS_PATH, async (c) => c.json(await tokens.jwks()));
  const controlHooks = { reset, faults, startedAt: Date.now(), version: VERSION, deliveries, streamKeepAliveMs: options.streamKeepAliveMs, serviceHosts: options.serviceHosts ?? DEFAULT_SERVICE_HOSTS };
  // The control API's health, answered before the groups are loaded (what a harness polls); with an admin token it
  // waits for the control API, whose token check applies to it.
  const early = options.lazyRoutes && !deps.settings.adminToken;
  if (early) app.get('/_sandbox/health', (c) => c.json(healthAnswer(deps, controlHooks), 200));
  const groups = mountRouteGroups(app, deps, controlHooks, new Set(early ? ['/_sandbox/health'] : []));
  if (options.lazyRoutes) {
    const dispatch = app.fetch;
    app.fetch = (request, ...rest) => {
      const ready = groups.ready(app.getPath(request));
      return ready ? ready.then(() => dispatch(request, ...rest)) : dispatch(request, ...rest);
    };
  } else await groups.all();

  let server: Listening | null = null;
  let serviceServer: Listening | null = null;
  let serviceError: string | undefined;
  let ca: Sandbox['ca'];
  const releaseQrThread = holdQrThread();
  const sandbox: Sandbox = {
    app,
    deps,
    resumed: loaded,
    get url() {
      return server?.url;
    },
    get ca() {
      return ca;
    },
    get serviceUrl() {
      return serviceServer?.url;
    },
    get serviceError() {
      return serviceError;
    },
    async listen(opts = {}) {
      if (server) return server.url;
      const host = opts.host ?? '127.0.0.1';
      let tlsOptions;
      if (options.https) {
        // Loaded only under https: the certificate code (pkijs) is start-up time a plain-HTTP sandbox does not pay.
        // Made at listen, not at build: the leaf names the listen address too.
        const { loadOrCreateCa, prepareServerTls, serverTlsOptions } = await import('./tls');
        const tls = await prepareServerTls({
          home: options.home ?? sandboxHome(),
          certFile: options.tlsCertFile,
          keyFile: options.tlsKeyFile,
          names: options.tlsNames,
          publicHost: deps.settings.publicHost,
          listenHost: host,
        });
        // --mtls: client certificates are asked (not required) in the handshake, so the other faces stand without one
        // and /api-pix/v2 answers a missing or foreign certificate with its own problem (api-pix/guard.ts).
        tlsOptions = options.mtls ? serverTlsOptions(tls, { clientCa: (tls.ca ?? (await loadOrCreateCa(deps.settings.home))).cert, clientCertificates: 'request' }) : serverTlsOptions(tls);
        ca = tls.ca && { path: tls.ca.certPath, pem: tls.ca.cert };
      }
      // Health is answered while the Node adapter loads (server.ts), as the route above would answer it.
      const earlyAnswer = early ? earlyHealth(() => (void scheduler.catchUp(), healthAnswer(deps, controlHooks)), hostDoor(allowedHosts)) : undefined;
      const serviceHosts = controlHooks.serviceHosts;
      const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_MS;
      const proxy = lazyProxy(
        () => import('./proxy').then(({ createProxy }) => createProxy({ serviceHosts, home: deps.settings.home, fetch: (r, env) => app.fetch(r, env as never), hostAllowed: hostDoor(allowedHosts), log, idleMs })),
        log,
      );
      server = await listen(app, opts.port ?? 4747, host, tlsOptions, earlyAnswer, proxy, idleMs);
      deps.listeners.add(server.url);
      if (options.servicePort !== undefined) {
        // The API on its own port stands without it: a service port refused (443 to an unprivileged user, a port in
        // use) is said in the banner (serviceError), not a failed start (the image asks for 443 wherever it runs).
        try {
          serviceServer = await listenServiceTls(options.servicePort, host, proxy.service);
          deps.listeners.add(serviceServer.url);
          // The CA and the bundle of the system's CAs with it, made now: a container that trusts them reads them from
          // a shared volume (PIX_SANDBOX_HOME) before its first call.
          await (await import('./proxy/bundle')).writeCaBundle(deps.settings.home);
        } catch (err) {
          serviceError = (err as Error).message;
        }
      }
      // --host 0.0.0.0: the addresses a phone on the same network opens (the banner and the pages name them); none in a
      // container, whose own addresses are not the LAN's.
      const port = Number(new URL(server.url).port);
      const scheme = options.https ? 'https' : 'http';
      deps.settings.lanUrls = options.container ? [] : lanUrls(host, port, scheme);
      deps.settings.lanUrlIfOpen = options.container ? undefined : lanUrls('0.0.0.0', port, scheme)[0];
      deps.settings.ownUrl = server.url;
      warnSelfFixtures(deps);
      scheduler.start();
      deps.retention.start();
      return server.url;
    },
    reset,
    settle: () => deliveries.settle(),
    async close() {
      scheduler.stop();
      deps.retention.stop();
      await deliveries.close();
      releaseQrThread();
      if (serviceServer) await serviceServer.close();
      serviceServer = null;
      if (server) await server.close();
      server = null;
      deps.listeners.clear();
      await store.atomically('system', () => {}).durable;
      await store.close();
    },
  };
  return sandbox;
}
