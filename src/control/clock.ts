// /_sandbox/clock: read, set, freeze and advance the sandbox clock; /_sandbox/accounts/{id}/clock: the same for a
// tenant's clock of its own (sandbox.md 4.6), given to it at its first move. Advancing runs what falls due on the way,
// on that clock only.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { controlConflict, controlErrors, controlSecurity, json, jsonBody, pathParam } from '../wire/schemas';
import type { Router } from '../wire/env';
import { SandboxError, validationError } from '../domain/errors';
import { CLOCK_MAX_MS, CLOCK_RANGE_TEXT, inClockRange, type Clock } from '../lib/clock';
import { isoTime } from '../lib/iso';
import { inRequestUnit } from '../wire/request-unit';
import { instantOf, tenantClockView } from '../services/clocks';
import { ClockSchema, TenantClockSchema } from './answers';
import { ClockInputSchema } from './schemas';

const ClockAdvanceSchema = z
  .object({ seconds: z.number({ error: 'must be a number of seconds, like 60' }).positive({ error: 'must be more than 0' }).max(366 * 86400, { error: 'must be at most one year (31622400)' }) })
  .openapi('ClockAdvance');
const tags = ['Control API'];
const security = controlSecurity;
const accountParam = z.object({ id: pathParam('id', 'The account id', '11111111-1111-4111-8111-111111111111') });

/** Where `clock` goes when `seconds` are added, refused (naming seconds) past the clock's range. */
function advanceTarget(clock: Clock, seconds: number): number {
  const ms = Math.round(seconds * 1000);
  if (!inClockRange(clock.nowMs() + ms))
    throw validationError([
      {
        field: 'seconds',
        message: `would take the clock to ${new Date(clock.nowMs() + ms).toISOString()}; the clock stays within ${CLOCK_RANGE_TEXT}, so advance at most ${Math.floor((CLOCK_MAX_MS - clock.nowMs()) / 1000)} seconds from ${clock.iso()}`,
      },
    ]);
  return ms;
}

export function registerClock(app: Router, deps: Deps) {
  const view = (clock: Clock) => ({ now: clock.iso(), frozen: clock.frozen });
  /**
   * The clock moved: tell the live stream (and answer with the same view; a tenant's clock names its account), and
   * run a retention sweep (services/retention.ts) before answering, so what the move made too old is gone.
   */
  const moved = async (clock: Clock, accountId?: string) => {
    const shown = view(clock);
    deps.bus.publish({ kind: 'clock', ...shown, ...(accountId === undefined ? {} : { accountId }) });
    await deps.retention.sweep();
    return shown;
  };
  const tenantView = (id: string) => tenantClockView(deps.clocks, id);
  /** The account's own clock, given to it (where the sandbox clock stands) if it has none yet; 404 for no account. */
  const ownClock = (id: string): Clock => {
    deps.store.account(id);
    if (deps.clocks.owns(id)) return deps.clocks.of(id);
    const clock = deps.clocks.own(id);
    deps.scheduler.adopt(id);
    return clock;
  };
  const setBody = jsonBody(ClockInputSchema, { now: '2026-03-10T12:00:00Z', frozen: true });
  const advanceBody = jsonBody(ClockAdvanceSchema, { seconds: 3600 });

  app.openapi(createRoute({ method: 'get', path: '/clock', operationId: 'getClock', tags, security, summary: 'Read the sandbox clock', responses: { 200: json(ClockSchema, 'Clock') } }), (c) =>
    c.json(view(deps.clock), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/clock',
      operationId: 'setClock',
      tags,
      security,
      summary: 'Set the sandbox clock to an instant and/or freeze or unfreeze it; moving forward runs what falls due (tenants with a clock of their own are not moved)',
      request: { body: setBody },
      responses: { 200: json(ClockSchema, 'Clock'), 400: controlErrors[400] },
    }),
    async (c) => {
      const { now, frozen } = c.req.valid('json');
      // Back to real time means running again, unless the caller asks to freeze there.
      await deps.scheduler.setClock(instantOf(deps.clock, now), frozen ?? (now === null ? false : deps.clock.frozen));
      return c.json(await moved(deps.clock), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/clock/advance',
      operationId: 'advanceClock',
      tags,
      security,
      summary: 'Advance the sandbox clock by some seconds, running expiries, automation and webhook retries in time order (of the tenants without a clock of their own)',
      request: { body: advanceBody },
      responses: { 200: json(ClockSchema, 'Clock'), 400: controlErrors[400] },
    }),
    async (c) => {
      await deps.scheduler.advance(advanceTarget(deps.clock, c.req.valid('json').seconds));
      return c.json(await moved(deps.clock), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/accounts/{id}/clock',
      operationId: 'getTenantClock',
      tags,
      security,
      summary: "Read the clock a tenant runs on: its own, or the sandbox clock (own: false)",
      request: { params: accountParam },
      responses: { 200: json(TenantClockSchema, 'The tenant clock'), 404: controlErrors[404] },
    }),
    (c) => {
      const { id } = c.req.valid('param');
      deps.store.account(id);
      return c.json(tenantView(id), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/accounts/{id}/clock',
      operationId: 'setTenantClock',
      tags,
      security,
      summary: "Set a tenant's own clock (given to it here if it runs on the sandbox clock) to an instant and/or freeze it; moving forward runs that tenant's work that falls due, nobody else's",
      request: { params: accountParam, body: setBody },
      responses: { 200: json(TenantClockSchema, 'The tenant clock'), 400: controlErrors[400], 404: controlErrors[404] },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { now, frozen } = c.req.valid('json');
      deps.store.account(id);
      // A tenant's time only goes forward: its charges, events and deliveries keep their order. Read where it stands
      // first, then the target (real time only grows, so `now: null` on a clock at real time is no move back).
      const current = deps.clocks.of(id);
      const from = current.nowMs();
      const to = instantOf(current, now);
      if (to < from)
        throw validationError([
          {
            field: 'now',
            message: `is ${isoTime(to)}, before the tenant's clock (${isoTime(from)}): a tenant's clock only moves forward, so its charges, events and deliveries keep their order; to start at an earlier time, make a tenant with clock: {"now": …} (POST /_sandbox/accounts)`,
          },
        ]);
      const clock = ownClock(id);
      await deps.scheduler.setClock(to, frozen ?? (now === null ? false : clock.frozen), id);
      await moved(clock, id);
      return c.json(tenantView(id), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/accounts/{id}/clock/advance',
      operationId: 'advanceTenantClock',
      tags,
      security,
      summary: "Advance a tenant's own clock (given to it here if it runs on the sandbox clock) by some seconds, running that tenant's expiries, automation and webhook retries in time order, nobody else's",
      request: { params: accountParam, body: advanceBody },
      responses: { 200: json(TenantClockSchema, 'The tenant clock'), 400: controlErrors[400], 404: controlErrors[404] },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { seconds } = c.req.valid('json');
      deps.store.account(id);
      // Checked on the clock it runs on now (its own starts there), before it is given one: a refusal changes nothing.
      const ms = advanceTarget(deps.clocks.of(id), seconds);
      const clock = ownClock(id);
      await deps.scheduler.advance(ms, id);
      await moved(clock, id);
      return c.json(tenantView(id), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/accounts/{id}/clock',
      operationId: 'releaseTenantClock',
      tags,
      security,
      summary:
        "Put a tenant back on the sandbox clock: its own clock first walks to where the sandbox clock stands, running what falls due on the way in time order. 409 CLOCK_BEHIND when the sandbox clock stands before the tenant's (the tenant's time only moves forward)",
      request: { params: accountParam },
      responses: { 200: json(TenantClockSchema, 'The tenant clock (own: false)'), 404: controlErrors[404], ...controlConflict('CLOCK_BEHIND: the sandbox clock stands before the tenant\'s own') },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      deps.store.account(id);
      if (deps.clocks.owns(id)) {
        const own = deps.clocks.of(id).nowMs();
        if (deps.clock.nowMs() < own)
          throw new SandboxError(
            'CLOCK_BEHIND',
            `The sandbox clock (${deps.clock.iso()}) stands before this tenant's clock (${isoTime(own)}), and a tenant's time only moves forward: advance the sandbox clock past it (POST /_sandbox/clock/advance), or keep the tenant's own clock`,
            { field: 'clock', sandbox: deps.clock.iso(), tenant: isoTime(own) },
          );
        // Its own clock walks to where the sandbox clock stands first, running its work in time order on the way.
        await deps.scheduler.setClock(deps.clock.nowMs(), true, id);
        inRequestUnit(c, () => deps.clocks.release(id));
        deps.scheduler.release(id);
        await deps.scheduler.catchUp();
        await moved(deps.clock, id);
      }
      return c.json(tenantView(id), 200);
    },
  );
}
