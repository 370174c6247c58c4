// A workshop room (sandbox.md 5.2): attendees join at /join with a name and get a tenant of their own, made from the
// workshop template with a clock of its own (4.6). The room itself (open or not, the cap, who joined from which
// browser) is kept in memory beside the state; the attendees' tenants are ordinary tenants of the state.
import { randomBytes } from 'node:crypto';
import type { Deps } from '../deps';
import { SandboxError, validationError } from '../domain/errors';
import type { Account } from '../domain/types';
import { createAccount, deleteAccount, type AccountSpec } from './accounts';
import type { Attendee, WorkshopRoom } from '../domain/workshop';

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

export function openWorkshop(room: WorkshopRoom): WorkshopRoom {
  room.started = true;
  room.open = true;
  return room;
}

export function setJoining(room: WorkshopRoom, open: boolean): WorkshopRoom {
  if (!room.started) throw new SandboxError('WORKSHOP_NOT_STARTED', 'No workshop is running: start one with POST /_sandbox/workshop (or --workshop) first.');
  room.open = open;
  return room;
}

/** The attendee who joined from `browser`, if any. */
export const attendeeOf = (room: WorkshopRoom, browser: string | undefined) => (browser ? room.attendees.find((a) => a.browser === browser) : undefined);

export const attendeeByToken = (room: WorkshopRoom, token: string | undefined) => (token ? room.attendees.find((a) => a.consoleToken === token) : undefined);

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
  const attendee: Attendee = { name, accountId: account.id, consoleToken: secret(), browser: browser ?? secret(), joinedAt: deps.clock.iso() };
  afterCommit(deps, () => room.attendees.push(attendee));
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
  });
  return deleted;
}

/**
 * The room lives in memory beside the state: it changes once the request's change holds (on disk with --data), so a
 * join or an end whose change is undone leaves the room as it was.
 */
function afterCommit(deps: Deps, change: () => void): void {
  if (!deps.store.afterCommit(change)) change();
}
