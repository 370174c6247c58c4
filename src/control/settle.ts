// POST /_sandbox/settle (sandbox.md 4.10): the "wait until my app got the webhook" of a test suite in any language.
// It runs what is due now and answers once no job is due and no delivery attempt is in flight, or 504 SETTLE_TIMEOUT
// naming what is still in flight. Retries wait for their time on the sandbox clock: settle never moves the clock.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { SandboxError } from '../domain/errors';
import { controlErrors, controlSecurity, errorResponse, json, optionalJsonBody } from '../wire/schemas';
import type { Router } from '../wire/env';
import { ATTEMPT_JOB, type DeliveryWorker } from '../webhooks/dispatcher';
import { valuesOf } from '../lib/objects';

export const SETTLE_DEFAULT_MS = 10_000;
/** Long enough for an attempt that uses its whole 10 s plus the ones it makes due; short enough to fail a CI step. */
export const SETTLE_MAX_MS = 120_000;

const SettleBody = z
  .object({
    timeoutMs: z
      .number({ error: `must be a whole number of milliseconds, like ${SETTLE_DEFAULT_MS}` })
      // A refine rather than .int(): zod 4 reports .int() as invalid_type without the input, which reads as "is required".
      .refine(Number.isInteger, { error: 'must be a whole number of milliseconds' })
      .min(1, { error: 'must be at least 1' })
      .max(SETTLE_MAX_MS, { error: `must be at most ${SETTLE_MAX_MS} (2 minutes)` })
      .default(SETTLE_DEFAULT_MS)
      .openapi({ description: 'Real-time milliseconds to wait for the deliveries in flight', example: SETTLE_DEFAULT_MS }),
  })
  .openapi('SettleRequest');

const Settled = z.object({ settled: z.literal(true) }).openapi('Settled');

export function registerSettle(app: Router, deps: Deps, worker: DeliveryWorker) {
  /**
   * For the time-out's answer only: a walk of every stored job (settling asks the scheduler's queue instead). An
   * attempt's job stays in the state while the attempt is in flight: that one is counted in inFlight, not here.
   */
  const dueJobs = () => {
    const flying = new Set(worker.inFlight());
    // Each job is due on the clock its tenant runs on.
    return valuesOf(deps.store.raw.jobs).filter((j) => j.dueAt <= deps.clocks.of(j.accountId).nowMs() && !(j.kind === ATTEMPT_JOB && flying.has(j.ref))).length;
  };

  app.openapi(
    createRoute({
      method: 'post',
      path: '/settle',
      operationId: 'settleSandbox',
      tags: ['Control API'],
      security: controlSecurity,
      summary: 'Run what is due now and wait until no job is due and no webhook attempt is in flight',
      // Marked required like every control body; an empty one reads as {} (wire/middleware/body.ts), so a bare POST works.
      request: { body: optionalJsonBody(SettleBody, { timeoutMs: 10000 }) },
      responses: {
        200: json(Settled, 'Nothing is due and no delivery attempt is in flight'),
        ...controlErrors,
        504: errorResponse('SETTLE_TIMEOUT: still busy after timeoutMs; details.inFlight lists the delivery ids, details.dueJobs the jobs due'),
      },
    }),
    async (c) => {
      // An optional body: a bare POST (no JSON) is not validated, so its default is applied here.
      const timeoutMs = (c.req.valid('json') as z.output<typeof SettleBody> | undefined)?.timeoutMs ?? SETTLE_DEFAULT_MS;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const expired = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
      try {
        for (;;) {
          // An attempt that ends may make another job due (a retry at 0 s); loop until both are quiet.
          if ((await Promise.race([worker.settle().then(() => 'done' as const), expired])) === 'timeout') break;
          if (worker.inFlight().length === 0 && !deps.scheduler.anyDue()) return c.json({ settled: true as const }, 200);
          // Let timers run between rounds, the time-out's included, whatever the jobs do.
          await new Promise((resolve) => setImmediate(resolve));
        }
      } finally {
        clearTimeout(timer);
      }
      const inFlight = worker.inFlight();
      throw new SandboxError(
        'SETTLE_TIMEOUT',
        `Not settled within ${timeoutMs} ms: ${inFlight.length} delivery attempt(s) still wait for an answer and ${dueJobs()} job(s) are due. ` +
          'A receiver that does not answer holds an attempt for the webhook time-out (10 s); answer 2xx sooner, or send a larger timeoutMs.',
        { timeoutMs, inFlight, dueJobs: dueJobs() },
      );
    },
  );
}
