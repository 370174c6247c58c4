// /_sandbox/clock: read, set, freeze and advance the sandbox clock. Advancing runs what falls due on the way.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { controlErrors, json, jsonBody } from '../http/schemas';
import type { Router } from '../http/env';

const ClockSchema = z.object({ now: z.string().openapi({ format: 'date-time' }), frozen: z.boolean() }).openapi('Clock');
// The instants an ISO 8601 date-time with a 4-digit year can name (0000-01-01 to 9999-12-31). Epoch milliseconds are
// held to the same range: beyond about +/-8.64e15 a Date is invalid and every response that prints the clock would throw.
const MIN_MS = Date.parse('0000-01-01T00:00:00.000Z');
const MAX_MS = Date.parse('9999-12-31T23:59:59.999Z');
const tags = ['Control API'];

export function registerClock(app: Router, deps: Deps) {
  const view = () => ({ now: deps.clock.iso(), frozen: deps.clock.frozen });
  /** The clock moved: tell the live stream (and answer with the same view). */
  const moved = () => {
    const clock = view();
    deps.bus.publish({ kind: 'clock', ...clock });
    return clock;
  };

  app.openapi(createRoute({ method: 'get', path: '/clock', tags, summary: 'Read the sandbox clock', responses: { 200: json(ClockSchema, 'Clock') } }), (c) => c.json(view(), 200));

  app.openapi(
    createRoute({
      method: 'put',
      path: '/clock',
      tags,
      summary: 'Set the clock to an instant and/or freeze or unfreeze it; moving forward runs what falls due',
      request: {
        body: jsonBody(
          z.object({
            now: z
              .union([z.iso.datetime({ offset: true }), z.number().int().min(MIN_MS).max(MAX_MS), z.null()], { error: 'must be an ISO 8601 date-time like 2026-01-15T12:00:00Z, epoch milliseconds, or null for real time' })
              .optional()
              .openapi({ description: 'The instant to jump to; null goes back to real time (and unfreezes unless `frozen` is true)' }),
            frozen: z.boolean().optional(),
          }),
        ),
      },
      responses: { 200: json(ClockSchema, 'Clock'), ...controlErrors },
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
      tags,
      summary: 'Advance the clock by some seconds, running expiries, automation and webhook retries in time order',
      request: { body: jsonBody(z.object({ seconds: z.number({ error: 'must be a number of seconds, like 60' }).positive({ error: 'must be more than 0' }).max(366 * 86400, { error: 'must be at most one year (31622400)' }) })) },
      responses: { 200: json(ClockSchema, 'Clock'), ...controlErrors },
    }),
    async (c) => {
      const { seconds } = c.req.valid('json');
      await deps.scheduler.advance(Math.round(seconds * 1000));
      return c.json(moved(), 200);
    },
  );
}
