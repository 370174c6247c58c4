// A workshop room (sandbox.md 5.2): attendees join at /join with a name and get a tenant of their own, made from the
// workshop template with a clock of its own (4.6). The room itself (open or not, the cap, who joined from which
// browser) is kept in memory beside the state; the attendees' tenants are ordinary tenants of the state.
import { randomBytes } from 'node:crypto';
import type { Deps } from '../deps';
import { SandboxError, validationError } from '../domain/errors';
import type { Account } from '../domain/types';
import { createAccount, deleteAccount, type AccountSpec } from './accounts';
import { csvCell, triggersOf, type Attendee, type Principal, type WorkshopRoom } from '../domain/workshop';

export const NAME_MAX = 60;

/** The template every attendee's tenant is made from: a balance to withdraw and refund from, the magic values on, a clock of its own. */
export function attendeeSpec(deps: Deps, name: string): AccountSpec {
  return {
    name,
    balance: 100_000,
    automation: { magicValues: true },
    // The endpoint slot: the presenter's --webhook-url when given, else empty until the attendee points it at their app.
    webhooks: [{ url: deps.settings.webhookUrl ?? null }],
    clock: {},
  };
}

const secret = () => randomBytes(18).toString('base64url');

/** A name as the join form takes it: trimmed, 1 to 60 characters; what to send instead otherwise. */
export function checkName(raw: unknown): string {
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (name.length < 1 || [...name].length > NAME_MAX)
    throw validationError([{ field: 'name', message: `must be 1 to ${NAME_MAX} characters (a first name is enough), got ${name.length === 0 ? 'none' : `${[...name].length}`}` }]);
  return name;
}

export function openWorkshop(deps: Deps, room: WorkshopRoom): WorkshopRoom {
  room.started = true;
  room.open = true;
  deps.bus.publish({ kind: 'workshop', change: 'open' });
  return room;
}

export function setJoining(deps: Deps, room: WorkshopRoom, open: boolean): WorkshopRoom {
  if (!room.started) throw new SandboxError('WORKSHOP_NOT_STARTED', 'No workshop is running: start one with POST /_sandbox/workshop (or --workshop) first.');
  room.open = open;
  deps.bus.publish({ kind: 'workshop', change: open ? 'open' : 'closed' });
  return room;
}

/** The attendee who joined from `browser`, if any. */
export const attendeeOf = (room: WorkshopRoom, browser: string | undefined) => (browser ? room.attendees.find((a) => a.browser === browser) : undefined);

/** The principal a console token (or a read-only view token) names, if any attendee holds it. */
export function attendeeByToken(room: WorkshopRoom, token: string | undefined): { attendee: Attendee; principal: Principal & { kind: 'attendee' } } | undefined {
  if (!token) return undefined;
  for (const attendee of room.attendees) {
    const readOnly = attendee.viewToken === token;
    if (readOnly || attendee.consoleToken === token) return { attendee, principal: { kind: 'attendee', accountId: attendee.accountId, name: attendee.name, readOnly } };
  }
  return undefined;
}

/**
 * Joins `name` from `browser` (its cookie; absent: a new one). The same browser joining again gets its tenant back.
 * Closed, full or a bad name: an error, and nothing changes (the tenant is made last, the room changed after it).
 */
export function joinWorkshop(deps: Deps, room: WorkshopRoom, rawName: unknown, browser: string | undefined): { attendee: Attendee; account: Account; again: boolean } {
  const known = attendeeOf(room, browser);
  if (known) {
    const account = deps.store.findAccount(known.accountId);
    if (account) return { attendee: known, account, again: true };
  }
  if (!room.open)
    throw new SandboxError('WORKSHOP_CLOSED', room.started ? 'Joining this workshop is closed: ask the presenter to reopen it.' : 'No workshop is running here: ask the presenter to start one.');
  if (room.attendees.length >= room.max)
    throw new SandboxError('WORKSHOP_FULL', `This room is full: it takes ${room.max} attendees (--workshop-max). Ask the presenter to make room or pair with someone.`, { max: room.max });
  const name = checkName(rawName);
  const account = createAccount(deps, attendeeSpec(deps, name));
  const attendee: Attendee = { name, accountId: account.id, consoleToken: secret(), viewToken: secret(), browser: browser ?? secret(), joinedAt: deps.clock.iso(), steps: {} };
  afterCommit(deps, () => {
    room.attendees.push(attendee);
    follow(deps, room);
  });
  deps.bus.publish({ kind: 'workshop', accountId: account.id, change: 'joined' });
  return { attendee, account, again: false };
}

/** Ends the workshop: the attendees' tenants are deleted and the room is empty and closed. */
export function endWorkshop(deps: Deps, room: WorkshopRoom): number {
  if (!room.started) throw new SandboxError('WORKSHOP_NOT_STARTED', 'No workshop is running (it was ended already, or never started): nothing was deleted.');
  let deleted = 0;
  for (const a of room.attendees)
    if (deps.store.findAccount(a.accountId)) {
      deleteAccount(deps, a.accountId);
      deleted++;
    }
  afterCommit(deps, () => {
    room.attendees = [];
    room.open = false;
    room.started = false;
    following.get(room)?.();
    following.delete(room);
  });
  deps.bus.publish({ kind: 'workshop', change: 'ended' });
  return deleted;
}

/** The stop functions of the rooms whose steps are being followed. */
const following = new WeakMap<WorkshopRoom, () => void>();

/**
 * Follows the attendees' steps from the changes the sandbox publishes (the bus that feeds the live stream), from the
 * first join to the end: each change costs a map lookup of its account, nothing walks the tenants. A step reached
 * is told on the bus too (`workshop` {change: 'step'}), so the presenter's Room panel shows it within a batch.
 */
function follow(deps: Deps, room: WorkshopRoom): void {
  if (following.has(room)) return;
  // The attendees by account, made again only when the list changed (a join, the end).
  let byAccount = new Map<string, Attendee>();
  let indexed: { list: Attendee[]; length: number } = { list: [], length: 0 };
  const stop = deps.bus.subscribe((messages) => {
    for (const message of messages) {
      if (!('accountId' in message) || message.accountId === undefined || message.kind === 'workshop') continue;
      const triggers = triggersOf(message as Parameters<typeof triggersOf>[0]);
      if (triggers.length === 0) continue;
      if (indexed.list !== room.attendees || indexed.length !== room.attendees.length) {
        byAccount = new Map(room.attendees.map((a) => [a.accountId, a]));
        indexed = { list: room.attendees, length: room.attendees.length };
      }
      const attendee = byAccount.get(message.accountId);
      if (!attendee) continue;
      for (const step of room.steps) {
        if (!triggers.includes(step.on) || attendee.steps[step.id] !== undefined) continue;
        attendee.steps[step.id] = deps.clock.iso();
        deps.bus.publish({ kind: 'workshop', accountId: attendee.accountId, change: 'step', step: step.id });
      }
    }
  });
  following.set(room, stop);
}

/** How many attendees reached each step (by id), for the projector. */
export function stepCounts(room: WorkshopRoom): Record<string, number> {
  const counts: Record<string, number> = Object.create(null);
  for (const step of room.steps) counts[step.id] = 0;
  for (const a of room.attendees) for (const id of Object.keys(a.steps)) if (id in counts) counts[id]!++;
  return counts;
}

/** The room as CSV: one row per attendee (name, account, joined at, then each step's time, empty when not reached). */
export function roomCsv(room: WorkshopRoom): string {
  const header = ['name', 'accountId', 'joinedAt', ...room.steps.map((s) => s.id)];
  const rows = room.attendees.map((a) => [a.name, a.accountId, a.joinedAt, ...room.steps.map((s) => a.steps[s.id] ?? '')]);
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/**
 * The room lives in memory beside the state: it changes once the request's change holds (on disk with --data), so a
 * join or an end whose change is undone leaves the room as it was.
 */
function afterCommit(deps: Deps, change: () => void): void {
  if (!deps.store.afterCommit(change)) change();
}
