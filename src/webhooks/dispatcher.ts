// Deliveries: one per event and endpoint, each attempt a job on the sandbox clock. Invariants:
// - the body is the event's bytes, fixed when the event was made; the delivery id is the X-Service-Webhook-ID of every
//   attempt; the signature is over exactly the bytes sent; the endpoint's URL and secret are read at each attempt;
// - an attempt's job stays in the state while the attempt is in flight; the unit that records its outcome takes it off
//   and schedules the retry, so a crash or a close never leaves a pending delivery without a job (one cut short is due
//   again at once when the sandbox next runs); only one attempt of a delivery is in flight at a time;
// - attempts of different deliveries run side by side, at most MAX_IN_FLIGHT sending at once (more wait for a slot;
//   the timeout runs from the send), so an advance or a settle takes about as long as the slowest attempt, not the sum;
// - nothing here blocks a response: the first attempt is a job due now, run by the scheduler on the next tick.
// - an attempt whose URL reaches one of the sandbox's own listeners sends nothing and is a failed attempt that says
//   so (sandbox.md 11, ./own-listeners), checked at each attempt as the listeners and the names' addresses may move.
import { noticePath } from '../domain/api-pix-rec';
import type { Deps } from '../deps';
import type { Account, Delivery, DeliveryAttempt, WebhookEndpoint } from '../domain/types';
import { rawOf } from '../store/unit';
import { signWebhookBody } from './signature';
import { postInThread } from './send-thread';
import { globalFetch, postWithFetch, Stop, type Answer, type Post } from './transport';
import { KEEP_JOB, type Job } from '../store/state';
import type { SandboxEvent } from '../domain/events';
import { selfWebhookHint } from './own-listeners';

export const ATTEMPT_JOB = 'webhook.attempt';
/** The vendor word of the delivery headers (sandbox.md 12): the service document writes it as Service. */
export const DEFAULT_HEADER_WORD = 'Service';

/** The delivery headers' names made with each vendor word, made once per word (an attempt would build six strings). */
const headerNames = new Map<string, { agent: string; event: string; id: string; signature: string; timestamp: string }>();

/** The delivery headers named with `word`: X-{word}-Event, -Webhook-ID, -Signature, -Timestamp and {word}-Webhook/1.0. */
export function deliveryHeaders(word: string, event: string, deliveryId: string, signature: string, at: number): Record<string, string> {
  let names = headerNames.get(word);
  if (!names) headerNames.set(word, (names = { agent: `${word}-Webhook/1.0`, event: `X-${word}-Event`, id: `X-${word}-Webhook-ID`, signature: `X-${word}-Signature`, timestamp: `X-${word}-Timestamp` }));
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'User-Agent': names.agent };
  headers[names.event] = event;
  headers[names.id] = deliveryId;
  headers[names.signature] = signature;
  headers[names.timestamp] = String(at);
  return headers;
}
/** No answer within this much real time is a failed attempt (sandbox.md 2.7). */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** Attempts sending at once (sandbox.md 4.10); enough for a CI suite's endpoints, few enough for a laptop's sockets. */
export const MAX_IN_FLIGHT = 32;

/**
 * The endpoints an event goes to: a sub-account's own endpoints that take this kind, else the main account's that
 * take it (an endpoint's `events` filter narrows what it receives; it never stops a sub-account's other kinds from
 * reaching the main account). Endpoints without a URL point nowhere: they make no delivery.
 */
export function endpointsFor(viewed: Account, event: Pick<SandboxEvent, 'event' | 'subAccount' | 'chave'>): WebhookEndpoint[] {
  const account = rawOf(viewed); // read, never written: the raw records, not the unit's proxies of each one
  // The standard face's notices go to the webhook of their key alone; its webhooks hear nothing else.
  if (event.chave !== undefined) return account.webhooks.filter((w) => w.chave === event.chave && w.url !== null);
  const takes = (w: WebhookEndpoint) => w.chave === undefined && (w.events.length === 0 || w.events.includes(event.event));
  const own = event.subAccount === null ? [] : account.webhooks.filter((w) => w.subAccount === event.subAccount && takes(w));
  const chosen = own.length > 0 ? own : account.webhooks.filter((w) => w.subAccount === null && takes(w));
  return chosen.filter((w) => w.url !== null);
}

/** How many deliveries an account's log keeps (sandbox.md 4.8); older finished ones are dropped, pending ones never. */
export const DELIVERY_LOG_LIMIT = 10_000;
/**
 * The ids of each log in the order they were added (from `head` on), read once and then kept up to date, so a new
 * delivery neither counts the log again nor walks it for the oldest finished one (a for-in over a full log, on every
 * delivery past the limit, cost milliseconds each); read afresh once changes were undone or the state replaced (the
 * store's epoch moved), since an undone delivery leaves and a trim undone comes back. Only trimLog removes deliveries.
 */
const logOrders = new WeakMap<Record<string, Delivery>, { ids: string[]; head: number; epoch: number }>();

/** After delivery `id` was added: drops the oldest finished deliveries while the log is over its limit (oldest first). */
export function trimLog(log: Record<string, Delivery>, id: string, limit: number, epoch: number): void {
  let order = logOrders.get(log);
  if (!order || order.epoch !== epoch) logOrders.set(log, (order = { ids: Object.keys(log), head: 0, epoch }));
  else order.ids.push(id);
  const { ids } = order;
  let size = ids.length - order.head;
  for (let i = order.head; size > limit && i < ids.length; ) {
    const oldest = ids[i]!;
    if (log[oldest]?.state === 'pending') {
      i++; // pending deliveries are never dropped
      continue;
    }
    delete log[oldest];
    size--;
    if (i === order.head) i = ++order.head;
    else ids.splice(i, 1);
  }
  if (order.head > 1024 && order.head * 2 > ids.length) {
    order.ids = ids.slice(order.head);
    order.head = 0;
  }
}

/** Makes a pending delivery of `event` to `endpoint` with its first attempt due now. */
export function queueDelivery(deps: Deps, account: Account, event: SandboxEvent, endpoint: WebhookEndpoint, replayOf?: string): Delivery {
  const now = deps.clocks.nowOf(account);
  const delivery: Delivery = {
    id: deps.ids.uuid(),
    eventRecordId: event.id,
    event: event.event,
    eventId: event.eventId,
    subAccount: event.subAccount,
    endpointId: endpoint.id,
    url: endpoint.url,
    state: 'pending',
    createdAt: now,
    nextAttemptAt: now,
    attempts: [],
    ...(replayOf ? { replayOf } : {}),
  };
  account.deliveries[delivery.id] = delivery;
  deps.noteHolder('delivery', delivery.id, account.id);
  trimLog(account.deliveries, delivery.id, DELIVERY_LOG_LIMIT, deps.store.epoch);
  deps.scheduler.schedule({ kind: ATTEMPT_JOB, dueAt: now, accountId: account.id, ref: delivery.id });
  return delivery;
}

/** Called by recordEvent: one delivery per endpoint the event goes to. */
export function createDeliveries(deps: Deps, account: Account, event: SandboxEvent): void {
  for (const endpoint of endpointsFor(account, event)) queueDelivery(deps, account, event, endpoint);
}

/**
 * The endpoint (undefined once deleted) and the event of a delivery. Events are appended and deliveries are mostly of
 * recent ones, so the event is searched from the end. Both are read, never written: they are the raw records (inside
 * a unit, the search need not make a proxy of every event it passes).
 */
export function partsOf(viewed: Account, delivery: Delivery): { endpoint: WebhookEndpoint | undefined; event: SandboxEvent | undefined } {
  const account = rawOf(viewed);
  return {
    endpoint: account.webhooks.find((w) => w.id === delivery.endpointId),
    event: account.events.findLast((e) => e.id === delivery.eventRecordId),
  };
}

type Outcome = Omit<DeliveryAttempt, 'at'>;

/** Why no answer came, with the cause's code a developer can search for (ECONNREFUSED, ECONNRESET, HPE_...). */
function describeFailure(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } } | undefined;
  const source = e?.cause ?? e;
  const cause = [source?.code, source?.message].filter(Boolean).join(': ');
  return `could not get an HTTP answer (${cause || e?.message || String(err)})`;
}

class Interrupted extends Error {}
/** The time-out's reason (made only when an attempt times out). */
class TimedOut extends Error {}

/** The outcome of an HTTP answer: a 2xx is a success; a redirect is not followed. */
function answered(res: Answer, durationMs: number, text: string): Outcome {
  const kept = text ? { responseBody: text } : {};
  if (res.status >= 200 && res.status <= 299) return { statusCode: res.status, durationMs, error: null, ...kept };
  const { location } = res;
  const error =
    res.status >= 300 && res.status <= 399
      ? `redirect (HTTP ${res.status}${location ? ` to ${location}` : ''}): redirects are not followed; register the final URL`
      : `HTTP ${res.status}: only a 2xx answer is a success`;
  return { statusCode: res.status, durationMs, error, ...kept };
}

/**
 * One POST. Resolves with the outcome (never rejects), or with Interrupted when close() stopped it. The time-out
 * stops it too; a stop settles the attempt at once whatever the Post does with it, so an injected fetch that ignores
 * its signal cannot hold an attempt (or close()) forever. A stop once the answer's head is in keeps the answer (its
 * body as far as it came: nothing).
 */
function send(post: Post, url: string, headers: Record<string, string>, body: string, timeoutMs: number, stop: Stop): Promise<Outcome | Interrupted> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let answer: { res: Answer; durationMs: number } | undefined;
    const timer = setTimeout(() => stop.stop(new TimedOut(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const finish = (outcome: Outcome | Interrupted) => {
      clearTimeout(timer);
      resolve(outcome); // the first call settles it
    };
    const failed = (err: unknown) => {
      if (answer) return finish(answered(answer.res, answer.durationMs, ''));
      const reason = stop.stopped ? stop.reason : err;
      if (reason instanceof Interrupted) return finish(reason);
      finish({ statusCode: null, durationMs: elapsed(), error: reason instanceof TimedOut ? reason.message : describeFailure(reason) });
    };
    stop.onStop(failed);
    let sent: Promise<Answer>;
    try {
      sent = post(url, headers, body, stop);
    } catch (err) {
      return failed(err);
    }
    sent.then((res) => {
      answer = { res, durationMs: elapsed() };
      const { durationMs } = answer;
      return res.text().then(
        (text) => finish(answered(res, durationMs, text)),
        () => finish(answered(res, durationMs, '')),
      );
    }, failed);
  });
}

/**
 * At most `size` attempts sending at once; the others wait in order. A finished attempt hands its slot to the next one
 * (p-limit did the same with about seven promises per attempt).
 */
function slots(size: number) {
  let free = size;
  const waiting: Array<() => void> = [];
  let head = 0;
  const release = () => {
    if (head < waiting.length) {
      const next = waiting[head]!;
      waiting[head++] = undefined as never;
      if (head > 1024 && head * 2 > waiting.length) waiting.splice(0, head), (head = 0);
      next();
    } else free++;
  };
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = () => {
      const p = work();
      p.then(release, release);
      return p;
    };
    if (free > 0) {
      free--;
      return run();
    }
    return new Promise<void>((r) => waiting.push(r)).then(run);
  };
}

/** Records a finished attempt, settles the delivery's state and tells the live stream. */
function conclude(deps: Deps, account: Account, delivery: Delivery, attempt: DeliveryAttempt) {
  delivery.attempts.push(attempt);
  if (attempt.error === null) {
    delivery.state = 'succeeded';
    delivery.nextAttemptAt = null;
  } else if (delivery.nextAttemptAt === null) delivery.state = 'failed';
  deps.bus.publish({ kind: 'delivery', accountId: account.id, deliveryId: delivery.id, state: delivery.state, attempts: delivery.attempts.length });
}

export interface DeliveryWorker {
  /** Runs the jobs due now and resolves once no attempt is in flight (tests and CI suites await it after a change). */
  settle(): Promise<void>;
  /** Ids of the deliveries whose attempt is waiting for an answer now (POST /_sandbox/settle reports them). */
  inFlight(): string[];
  /** Cuts the attempts in flight short (they are made again after a restart) and waits for them to wind up. */
  close(): Promise<void>;
}

/** Registers the attempt job. `timeoutMs` is real time (createSandbox option webhookTimeoutMs). */
export function registerDeliveryJobs(deps: Deps, timeoutMs = DEFAULT_TIMEOUT_MS): DeliveryWorker {
  /** The attempt in flight of each delivery, by delivery id, with the id of its job (taken off by its outcome). */
  const inFlight = new Map<string, { done: Promise<void>; stop: Stop; job: string }>();
  const slot = slots(MAX_IN_FLIGHT);
  let closed = false;
  // The sandbox's own keep-alive connections, in the delivery thread, unless a fetch was given (./send-thread, ./transport).
  const http = deps.fetch === globalFetch ? postInThread(MAX_IN_FLIGHT) : undefined;
  const post = http?.post ?? postWithFetch(deps.fetch);

  /** The delivery a job is for, if the job is still its next attempt. */
  function due(job: Job): { account: Account; delivery: Delivery } | undefined {
    const account = deps.store.findAccount(job.accountId);
    const delivery = account && Object.hasOwn(account.deliveries, job.ref) ? account.deliveries[job.ref] : undefined;
    if (!account || !delivery || delivery.state !== 'pending' || delivery.nextAttemptAt !== job.dueAt) return undefined;
    return { account, delivery };
  }

  /** Sets when the next attempt falls due (null: none is left) and schedules it. */
  function retryAt(account: Account, delivery: Delivery, next: number | null) {
    delivery.nextAttemptAt = next;
    if (next !== null) deps.scheduler.schedule({ kind: ATTEMPT_JOB, dueAt: next, accountId: account.id, ref: delivery.id });
  }

  /** The attempt's POST, unless its URL reaches the sandbox's own listeners: then a failed attempt that sent nothing. */
  function guardedSend(url: string, headers: Record<string, string>, body: string, stop: Stop): Promise<Outcome | Interrupted> {
    const refused = deps.listeners.atDelivery(url);
    if (refused === undefined) return send(post, url, headers, body, timeoutMs, stop);
    const outcome = (reason: string | undefined) =>
      reason !== undefined ? { statusCode: null, durationMs: 0, error: `refused, no request sent: the URL ${selfWebhookHint(reason)}` } : stop.stopped ? (stop.reason as Interrupted) : send(post, url, headers, body, timeoutMs, stop);
    return typeof refused === 'string' ? Promise.resolve(outcome(refused)) : refused.then(outcome);
  }

  /** Starts the attempt of `job`; true when it sends one (its outcome, detached, takes the job off). */
  function attempt(account: Account, delivery: Delivery, job: Job): boolean {
    const at = deps.clocks.nowOf(account);
    const { endpoint, event } = partsOf(account, delivery);
    const settings = rawOf(account); // read only: the retry schedule and the header word
    const delay = settings.webhookRetrySchedule[delivery.attempts.length];
    const next = delay === undefined ? null : at + delay * 1000;
    if (!endpoint || !event) {
      delivery.nextAttemptAt = null;
      conclude(deps, account, delivery, { at, statusCode: null, durationMs: 0, error: endpoint ? 'the event of this delivery is no longer in the state' : 'the endpoint was deleted' });
      return false;
    }
    if (endpoint.url === null) {
      retryAt(account, delivery, next);
      conclude(deps, account, delivery, { at, statusCode: null, durationMs: 0, error: `the endpoint has no URL; set one with PATCH /_sandbox/webhooks/${endpoint.id}` });
      return false;
    }
    // The standard face posts to {webhookUrl}/pix (/rec, /cobr for Pix Automático), unsigned (it relies on mTLS); the
    // service's deliveries are signed.
    const url = endpoint.chave === undefined ? endpoint.url : `${endpoint.url.replace(/\/+$/, '')}/${noticePath(endpoint.chave)}`;
    if (delivery.url !== url) delivery.url = url; // a write (recorded by the unit) only when it moved
    const word = settings.webhookHeaderWord ?? deps.settings.webhookHeaderWord ?? DEFAULT_HEADER_WORD;
    const headers =
      endpoint.chave === undefined
        ? deliveryHeaders(word, delivery.event, delivery.id, signWebhookBody(event.body, endpoint.secret), at)
        : { 'Content-Type': 'application/json', 'User-Agent': `${word}-Webhook/1.0` };
    const stop = new Stop();
    // A close() while waiting for a slot ends the attempt before it is sent (made again after a restart).
    const sent = slot(() => (stop.stopped ? Promise.resolve(stop.reason as Interrupted) : guardedSend(url, headers, event.body, stop)));
    const done = sent.then((outcome) => {
      inFlight.delete(delivery.id);
      // Cut short by close(): nothing is recorded, and the job stays due (made again when the sandbox next runs).
      if (outcome instanceof Interrupted) return undefined;
      // The outcome is a unit of work of its own (the job's unit ended when the attempt started).
      const { durable } = deps.store.atomically('delivery', () => {
        deps.scheduler.unschedule(job.id);
        if (outcome.error !== null) retryAt(account, delivery, next);
        conclude(deps, account, delivery, { at, ...outcome, requestHeaders: headers });
      });
      return durable;
    });
    inFlight.set(delivery.id, { done, stop, job: job.id });
    // It runs beside the scheduler's walk of the clock (other deliveries' attempts need not wait for its answer), which
    // waits for it at its retry's instant only.
    deps.scheduler.detach(done, next ?? Infinity, account.id);
    return true;
  }

  const handle = (job: Job): typeof KEEP_JOB | undefined => {
    if (closed) return KEEP_JOB; // left for the sandbox's next run
    const found = due(job);
    if (!found) return undefined;
    // Only one attempt of a delivery is in flight: its own job met again (the queue was rebuilt meanwhile) stays for
    // that attempt's outcome to take off; any other is moot, the outcome scheduling what comes next.
    const previous = inFlight.get(found.delivery.id);
    if (previous) return previous.job === job.id ? KEEP_JOB : undefined;
    return attempt(found.account, found.delivery, job) ? KEEP_JOB : undefined;
  };
  deps.scheduler.on(ATTEMPT_JOB, handle);

  return {
    async settle() {
      for (;;) {
        await deps.scheduler.catchUp();
        if (inFlight.size === 0) return;
        await Promise.all([...inFlight.values()].map((f) => f.done));
      }
    },
    inFlight: () => [...inFlight.keys()],
    async close() {
      closed = true;
      const running = [...inFlight.values()];
      for (const f of running) f.stop.stop(new Interrupted('the sandbox closed during the attempt'));
      await Promise.all(running.map((f) => f.done));
      http?.close();
    },
  };
}
