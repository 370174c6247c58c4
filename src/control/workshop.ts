// /_sandbox/workshop (sandbox.md 5.2): POST opens a workshop room, GET is the room (attendees and the steps each
// reached, counts per step), GET /workshop/room.csv the same as CSV, PATCH {open} closes or reopens joining, DELETE
// ends it (the attendees' tenants are deleted). Behind the admin token like every control route; an attendee's token
// reaches none of them (control/principal.ts).
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { controlErrors, controlSecurity, json, jsonBody } from '../wire/schemas';
import type { Router } from '../wire/env';
import { endWorkshop, openWorkshop, roomCsv, setJoining, stepCounts } from '../services/workshop';
import type { WorkshopRoom } from '../domain/workshop';

const tags = ['Control API'];
const security = controlSecurity;

const RoomSchema = z
  .object({
    started: z.boolean(),
    open: z.boolean(),
    max: z.number().int(),
    joinUrl: z.string(),
    steps: z.array(z.object({ id: z.string(), label: z.string(), reached: z.number().int().openapi({ description: 'How many attendees reached it' }) })),
    attendees: z.array(
      z.object({
        name: z.string(),
        accountId: z.string(),
        joinedAt: z.string(),
        consoleUrl: z.string().openapi({ description: "The attendee's console, scoped to their tenant" }),
        viewUrl: z.string().openapi({ description: 'The same console read-only (GETs only): the presenter\'s way in to help' }),
        steps: z.record(z.string(), z.string()).openapi({ description: 'Step id to when it was first reached (sandbox clock); a step not reached is absent' }),
      }),
    ),
  })
  .openapi('WorkshopRoom');

/** The room as the control API shows it; `base` is where attendees reach the sandbox (the LAN address when listening there). */
export function roomView(deps: Deps, room: WorkshopRoom, requestOrigin: string) {
  const base = deps.settings.lanUrls?.[0]?.replace(/\/$/, '') ?? requestOrigin;
  const counts = stepCounts(room);
  return {
    started: room.started,
    open: room.open,
    max: room.max,
    joinUrl: `${base}/join`,
    steps: room.steps.map((s) => ({ id: s.id, label: s.label, reached: counts[s.id] ?? 0 })),
    attendees: room.attendees.map((a) => ({
      name: a.name,
      accountId: a.accountId,
      joinedAt: a.joinedAt,
      consoleUrl: `${base}/?attendee=${a.consoleToken}`,
      viewUrl: `${base}/?attendee=${a.viewToken}`,
      steps: { ...a.steps },
    })),
  };
}

export function registerWorkshop(app: Router, deps: Deps) {
  const room = deps.workshop;
  const origin = (url: string) => new URL(url).origin;
  app.openapi(
    createRoute({ method: 'post', path: '/workshop', operationId: 'openWorkshop', tags, security, summary: 'Open a workshop room: attendees join at /join', responses: { 200: json(RoomSchema, 'The room, open'), ...controlErrors } }),
    (c) => c.json(roomView(deps, openWorkshop(deps, room), origin(c.req.url)), 200),
  );
  app.openapi(
    createRoute({ method: 'get', path: '/workshop', operationId: 'getWorkshop', tags, security, summary: 'The workshop room: whether joining is open, the attendees', responses: { 200: json(RoomSchema, 'The room'), ...controlErrors } }),
    (c) => c.json(roomView(deps, room, origin(c.req.url)), 200),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/workshop/room.csv',
      operationId: 'exportWorkshopRoom',
      tags,
      security,
      summary: 'The room as CSV: name, account, when they joined and when each step was reached (a name a spreadsheet would run as a formula is quoted as text)',
      responses: { 200: { description: 'text/csv, one row per attendee', content: { 'text/csv': { schema: z.string() } } }, ...controlErrors },
    }),
    (c) => c.body(roomCsv(room), 200, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="workshop-room.csv"' }),
  );
  app.openapi(
    createRoute({
      method: 'patch',
      path: '/workshop',
      operationId: 'patchWorkshop',
      tags,
      security,
      summary: 'Close (open: false) or reopen (open: true) joining',
      request: { body: jsonBody(z.object({ open: z.boolean({ error: 'must be true (joining open) or false (closed)' }) }).strict().openapi('WorkshopPatch'), { open: false }) },
      responses: { 200: json(RoomSchema, 'The room'), ...controlErrors },
    }),
    (c) => c.json(roomView(deps, setJoining(deps, room, c.req.valid('json').open), origin(c.req.url)), 200),
  );
  app.openapi(
    createRoute({
      method: 'delete',
      path: '/workshop',
      operationId: 'endWorkshop',
      tags,
      security,
      summary: "End the workshop: the attendees' tenants are deleted",
      responses: { 200: json(z.object({ ended: z.literal(true), deleted: z.number().int() }).openapi('WorkshopEnded'), 'Ended'), ...controlErrors },
    }),
    (c) => c.json({ ended: true as const, deleted: endWorkshop(deps, room) }, 200),
  );
}
