// /_sandbox/workshop (sandbox.md 5.2): POST opens a workshop room, GET is the room (its code, attendees and the steps
// each reached, counts per step), GET /workshop/room.csv the same as CSV, PATCH {open} closes or reopens joining,
// POST /workshop/attendees adds attendees in bulk, DELETE ends it (the attendees' tenants are deleted). Behind the admin token like every control route; an attendee's token
// reaches none of them (control/principal.ts).
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { controlErrors, controlSecurity, json, jsonBody, optionalJsonBody } from '../wire/schemas';
import type { Router } from '../wire/env';
import { addAttendees, baseOf, endWorkshop, joinUrlOf, NAME_MAX, openWorkshop, roomCsv, setJoining, stepCounts } from '../services/workshop';
import type { Attendee, WorkshopRoom } from '../domain/workshop';
import type { Account } from '../domain/types';

const tags = ['Control API'];
const security = controlSecurity;

const RoomSchema = z
  .object({
    started: z.boolean(),
    open: z.boolean(),
    name: z.string().nullable().openapi({ description: "The room's name as the projector shows it (null when none was given)" }),
    max: z.number().int(),
    code: z.string().nullable().openapi({ description: "The room's code, which joining takes (null while no workshop runs)" }),
    joinUrl: z.string().openapi({ description: 'Where attendees join, the code in it (what the projector shows and its QR carries)' }),
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
  const base = baseOf(deps, requestOrigin);
  const counts = stepCounts(room);
  return {
    started: room.started,
    open: room.open,
    name: room.name,
    max: room.max,
    code: room.code,
    joinUrl: joinUrlOf(room, base),
    steps: room.steps.map((s) => ({ id: s.id, label: s.label, reached: counts[s.id] ?? 0 })),
    attendees: room.attendees.map((a) => ({
      name: a.name,
      accountId: a.accountId,
      joinedAt: a.joinedAt,
      ...links(a, base),
      steps: { ...a.steps },
    })),
  };
}

const links = (a: Attendee, base: string) => ({ consoleUrl: `${base}/?attendee=${a.consoleToken}`, viewUrl: `${base}/?attendee=${a.viewToken}` });

/** An added attendee as the presenter hands it out: their console link, and the credentials their join page shows. */
function addedView({ attendee, account }: { attendee: Attendee; account: Account }, base: string) {
  return {
    name: attendee.name,
    accountId: account.id,
    ...links(attendee, base),
    clientId: account.credentials[0]!.clientId,
    clientSecret: account.credentials[0]!.clientSecret,
    apiKey: account.apiKeys[0]?.key ?? null,
    webhookSecret: account.webhooks[0]?.secret ?? null,
  };
}

const ADD_MAX = 10_000;

// Every field may be left out: a bare POST opens a room without a name, for the --workshop-max cap, joining open.
const OpenSchema = z
  .object({
    name: z.string({ error: `must be the room's name, 1 to ${NAME_MAX} characters` }).optional(),
    max: z.number({ error: 'must be a whole number of attendees of at least 1 (for example 30)' }).int({ error: 'must be a whole number of attendees of at least 1 (for example 30)' }).min(1, { error: 'must be at least 1 attendee (for example 30)' }).max(ADD_MAX, { error: `must be at most ${ADD_MAX} attendees` }).optional(),
    open: z.boolean({ error: 'must be true (joining opens now) or false (the room opens with joining closed)' }).optional(),
  })
  .strict()
  .openapi('WorkshopOpen');
const AddSchema = z
  .object({
    names: z.array(z.string(), { error: `must be a list of names (each 1 to ${NAME_MAX} characters)` }).min(1).max(ADD_MAX).optional(),
    count: z.number({ error: 'must be a whole number of attendees' }).int().min(1).max(ADD_MAX).optional(),
  })
  .strict()
  .refine((b) => (b.names === undefined) !== (b.count === undefined), { error: 'or count, exactly one of the two: names (a list of names) or count (how many "Attendee N" to add)', path: ['names'] })
  .openapi('WorkshopAttendeesAdd');

const AddedSchema = z
  .object({
    attendees: z.array(
      z.object({
        name: z.string(),
        accountId: z.string(),
        consoleUrl: z.string(),
        viewUrl: z.string(),
        clientId: z.string(),
        clientSecret: z.string(),
        apiKey: z.string().nullable(),
        webhookSecret: z.string().nullable(),
      }),
    ),
  })
  .openapi('WorkshopAttendeesAdded');

export function registerWorkshop(app: Router, deps: Deps) {
  const room = deps.workshop;
  const origin = (url: string) => new URL(url).origin;
  app.openapi(
    createRoute({
      method: 'post',
      path: '/workshop',
      operationId: 'openWorkshop',
      tags,
      security,
      summary: 'Open a workshop room (a name, a cap, joining open or not; all optional): attendees join at /join',
      request: { body: optionalJsonBody(OpenSchema, { name: 'Pix workshop', max: 30, open: true }) },
      responses: { 200: json(RoomSchema, 'The room'), ...controlErrors },
    }),
    // An optional body: a bare POST is not validated, and opens a room with the defaults.
    (c) => c.json(roomView(deps, openWorkshop(deps, room, (c.req.valid('json') as z.output<typeof OpenSchema> | undefined) ?? {}), origin(c.req.url)), 200),
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
      method: 'post',
      path: '/workshop/attendees',
      operationId: 'addWorkshopAttendees',
      tags,
      security,
      summary: 'Add attendees in bulk (names, or a count of numbered ones), whether joining is open or not: each gets a tenant; all of them or none',
      request: { body: jsonBody(AddSchema, { names: ['Ana', 'Bruno'] }) },
      responses: { 201: json(AddedSchema, 'The attendees added, with their console links and credentials'), ...controlErrors },
    }),
    (c) => {
      const base = baseOf(deps, origin(c.req.url));
      return c.json({ attendees: addAttendees(deps, room, c.req.valid('json')).map((a) => addedView(a, base)) }, 201);
    },
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
