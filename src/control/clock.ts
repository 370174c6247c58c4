// /_sandbox/clock: read, set, freeze and advance the sandbox clock. Advancing runs what falls due on the way.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { controlErrors, controlSecurity, json, jsonBody } from '../wire/schemas';
import type { Router } from '../wire/env';
import { validationError } from '../domain/errors';
import { CLOCK_MAX_MS, CLOCK_RANGE_TEXT, inClockRange } from '../lib/clock';

const ClockSchema = z.object({ now: z.string().openapi({ format: 'date-time' }), frozen: z.boolean() }).openapi('Clock');
const outOfRange = `must be an instant from ${CLOCK_RANGE_TEXT}`;
const tags = ['Control API'];
const security = controlSecurity;

export function registerClock(app: Router, deps: Deps) {
  const view = () => ({ now: deps.clock.iso(), frozen: deps.clock.frozen });
  /** The clock moved: tell the live stream (and answer with the same view). */
  const moved = () => {
    const clock = view();
    deps.bus.publish({ kind: 'clock', ...clock });
    return clock;
  };

  app.openapi(createRoute({ method: 'get', path: '/clock', operationId: 'getClock', tags, security, summary: 'Read the sandbox clock', responses: { 200: json(ClockSchema, 'Clock') } }), (c) => c.json(view(), 200));

  app.openapi(
    createRoute({
      method: 'put',
      path: '/clock',
      operationId: 'setClock',
      tags,
      security,
      summary: 'Set the clock to an instant and/or freeze or unfreeze it; moving forward runs what falls due',
      request: {
        body: jsonBody(
          z.object({
            now: z
              .union([z.iso.datetime({ offset: true }), z.number().int(), z.null()], { error: 'must be an ISO 8601 date-time like 2026-01-15T12:00:00Z, epoch milliseconds, or null for real time' })
              // An offset can carry a 9999-12-31 date-time past the range, so the instant is checked, not the text.
              .refine((v) => v === null || inClockRange(typeof v === 'number' ? v : Date.parse(v)), { error: outOfRange })
              .optional()
              .openapi({ description: 'The instant to jump to; null goes back to real time (and unfreezes unless `frozen` is true)' }),
            frozen: z.boolean().optional(),
          }).openapi('ClockInput'),
          { now: '2026-03-10T12:00:00Z', frozen: true },
        ),
      },
      responses: { 200: json(ClockSchema, 'Clock'), 400: controlErrors[400] },
    }),
    async (c) => {
      const { now, frozen } = c.req.valid('json');
      const target = now === null ? deps.clock.realMs() : now === undefined ? deps.clock.nowMs() : typeof now === 'number' ? now : Date.parse(now);
      // Back to real time means running again, unless the caller asks to freeze there.
      await deps.scheduler.setClock(target, frozen ?? (now === null ? false : deps.clock.frozen));
      return c.json(moved(), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/clock/advance',
      operationId: 'advanceClock',
      tags,
      security,
      summary: 'Advance the clock by some seconds, running expiries, automation and webhook retries in time order',
      request: {
        body: jsonBody(
          z.object({ seconds: z.number({ error: 'must be a number of seconds, like 60' }).positive({ error: 'must be more than 0' }).max(366 * 86400, { error: 'must be at most one year (31622400)' }) }).openapi('ClockAdvance'),
          { seconds: 3600 },
        ),
      },
      responses: { 200: json(ClockSchema, 'Clock'), 400: controlErrors[400] },
    }),
    async (c) => {
      const { seconds } = c.req.valid('json');
      const ms = Math.round(seconds * 1000);
      if (!inClockRange(deps.clock.nowMs() + ms))
        throw validationError([
          { field: 'seconds', message: `would take the clock to ${new Date(deps.clock.nowMs() + ms).toISOString()}; the clock ${outOfRange.replace('must be an instant', 'stays')}, so advance at most ${Math.floor((CLOCK_MAX_MS - deps.clock.nowMs()) / 1000)} seconds from ${deps.clock.iso()}` },
        ]);
      await deps.scheduler.advance(ms);
      return c.json(moved(), 200);
    },
  );
}
