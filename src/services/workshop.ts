// A workshop room (sandbox.md 5.2): attendees join at /join with the room's code and a name and get a tenant of their
// own, made from the workshop template with a clock of its own (4.6); the presenter may add them in bulk. The room
// itself (open or not, its code, the cap, who joined from which browser) is kept in memory beside the state; the
// attendees' tenants are ordinary tenants of the state. A join cookie's value is always one this module made.
import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../deps';
import { SandboxError, validationError } from '../domain/errors';
import type { Account } from '../domain/types';
import { createAccount, deleteAccount, type AccountSpec } from './accounts';
import { csvCell, triggersOf, type Attendee, type GoneReason, type Principal, type WorkshopRoom } from '../domain/workshop';

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

// The doors' secrets come from the system's randomness, never from the seedable ids: a seed makes ids replayable, and
// a console token or a room code anyone can replay is no door.
const secret = () => randomBytes(18).toString('base64url');

/** Letters and digits a person reads off a projector and types on a phone without mixing up (no 0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const CODE_LENGTH = 6;

/** A new room code: 6 characters of 31, about 887 million codes, against a join rate bounded per address. */
export const newRoomCode = () => Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');

/** A code as a person may type it: any case, with spaces or dashes. */
const normalCode = (raw: unknown) => (typeof raw === 'string' ? raw.toUpperCase().replace(/[\s-]+/g, '') : '');

/** Whether `given` is the running room's code (compared in constant time). */
export function isRoomCode(room: WorkshopRoom, given: unknown): boolean {
  if (!room.code) return false;
  const code = Buffer.from(normalCode(given));
  const right = Buffer.from(room.code);
  return code.length === right.length && timingSafeEqual(code, right); // bytes, not characters: 'ÄBCDEF' is 7 bytes
}

/** Refuses a missing or wrong code, saying where the right one is. */
function checkCode(room: WorkshopRoom, given: unknown): void {
  if (isRoomCode(room, given)) return;
  const where = "it is in the join address on the presenter's screen (/join?code=...) and under its QR code; or ask the presenter";
  throw new SandboxError('WORKSHOP_CODE_WRONG', normalCode(given) ? `That is not this room's code: ${where}.` : `Joining takes the room's code: ${where}.`);
}

/** A name as the forms take it: trimmed, 1 to 60 characters; else a 400 on `name` with `hint` (what to send instead). */
function trimmedName(raw: unknown, hint: string): string {
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (name.length < 1 || [...name].length > NAME_MAX)
    throw validationError([{ field: 'name', message: `must be 1 to ${NAME_MAX} characters (${hint}), got ${name.length === 0 ? 'none' : `${[...name].length}`}` }]);
  return name;
}

/** An attendee's name as the join form takes it. */
export const checkName = (raw: unknown): string => trimmedName(raw, 'a first name is enough');

/** What opening a room may set: its name, how many attendees it takes, and whether joining opens now (it does unless `open` is false). */
export interface RoomOpening {
  name?: string;
  max?: number;
  open?: boolean;
}

/**
 * Opens a room: a workshop that was not running starts with a new code (one already running keeps its code and its
 * attendees, and takes the name and cap given). A bad name or a cap below the attendees already in: an error, and
 * nothing changes.
 */
export function openWorkshop(deps: Deps, room: WorkshopRoom, opening: RoomOpening = {}): WorkshopRoom {
  const name = opening.name === undefined ? undefined : roomName(opening.name);
  if (opening.max !== undefined && opening.max < room.attendees.length)
    throw validationError([{ field: 'max', message: `must be at least ${room.attendees.length}, the attendees already in this room (got ${opening.max})` }]);
  if (!room.started) {
    room.code = newRoomCode();
    room.name = null;
  }
  if (name !== undefined) room.name = name;
  if (opening.max !== undefined) room.max = opening.max;
  room.started = true;
  room.open = opening.open ?? true;
  deps.bus.publish({ kind: 'workshop', change: room.open ? 'open' : 'closed' });
  return room;
}

/** A room's name as the open form takes it. */
const roomName = (raw: string): string => trimmedName(raw, 'what the projector shows, like "Pix workshop"');

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

/** The attendee whose browser sent join cookie `browser`, with their tenant; none for a value nobody holds or a tenant gone. */
export function returning(deps: Deps, room: WorkshopRoom, browser: string | undefined): { attendee: Attendee; account: Account } | undefined {
  const attendee = attendeeOf(room, browser);
  const account = attendee && deps.store.findAccount(attendee.accountId);
  return attendee && account ? { attendee, account } : undefined;
}

/**
 * Joins `name` with the room's `code` from a browser that is not an attendee's yet: a tenant of their own, and a new
 * join cookie value (whatever cookie the browser sent is never taken). Closed, a wrong code, full or a bad name: an
 * error, and nothing changes.
 */
export function joinWorkshop(deps: Deps, room: WorkshopRoom, input: { name: unknown; code: unknown }): { attendee: Attendee; account: Account } {
  if (!room.open)
    throw new SandboxError('WORKSHOP_CLOSED', room.started ? 'Joining this workshop is closed: ask the presenter to reopen it.' : 'No workshop is running here: ask the presenter to start one.');
  checkCode(room, input.code);
  checkRoomFor(room, 1);
  const name = checkName(input.name);
  return enrol(deps, room, [name], true)[0]!;
}

/**
 * The presenter adds attendees (`names`, or `count` numbered ones) whether joining is open or not: each gets a tenant
 * and console links, and no join cookie (their console link is their way in). All of them or none.
 */
export function addAttendees(deps: Deps, room: WorkshopRoom, input: { names?: string[]; count?: number }): { attendee: Attendee; account: Account }[] {
  if (!room.started) throw new SandboxError('WORKSHOP_NOT_STARTED', 'No workshop is running: start one with POST /_sandbox/workshop (or --workshop) first.');
  const names = input.names
    ? input.names.map((raw, i) => {
        try {
          return checkName(raw);
        } catch {
          throw validationError([{ field: `names[${i}]`, message: `must be 1 to ${NAME_MAX} characters after trimming, got ${JSON.stringify(raw)}` }]);
        }
      })
    : Array.from({ length: input.count ?? 0 }, (_, i) => `Attendee ${room.attendees.length + i + 1}`);
  checkRoomFor(room, names.length);
  return enrol(deps, room, names, false);
}

/** Refuses `joining` more attendees than the room has places for. */
function checkRoomFor(room: WorkshopRoom, joining: number): void {
  const left = room.max - room.attendees.length;
  if (joining <= left) return;
  throw new SandboxError(
    'WORKSHOP_FULL',
    left === 0
      ? `This room is full: it takes ${room.max} attendees (--workshop-max). Ask the presenter to make room or pair with someone.`
      : `This room has ${left} places left of ${room.max} (--workshop-max), not ${joining}: add at most ${left}.`,
    { max: room.max, left },
  );
}

/** A tenant per name (made first: the room changes only once they hold), with a join cookie value when `cookie`. */
function enrol(deps: Deps, room: WorkshopRoom, names: string[], cookie: boolean): { attendee: Attendee; account: Account }[] {
  const joined = names.map((name) => {
    const account = createAccount(deps, attendeeSpec(deps, name));
    const attendee: Attendee = { name, accountId: account.id, consoleToken: secret(), viewToken: secret(), ...(cookie ? { browser: secret() } : {}), joinedAt: deps.clock.iso(), steps: {} };
    return { attendee, account };
  });
  afterCommit(deps, () => {
    room.attendees.push(...joined.map((j) => j.attendee));
    follow(deps, room);
  });
  for (const { account } of joined) deps.bus.publish({ kind: 'workshop', accountId: account.id, change: 'joined' });
  return joined;
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
    leaveRoom(room, 'ended');
    room.open = false;
    room.started = false;
    room.code = null; // the projector's QR of this workshop opens nothing any more
    room.name = null;
    following.get(room)?.();
    following.delete(room);
  });
  deps.bus.publish({ kind: 'workshop', change: 'ended' });
  return deleted;
}

/** How many former attendees' secrets the room remembers: the oldest are forgotten first (their pages then say less). */
export const GONE_KEPT = 3_000;

/** Empties the room, remembering why each attendee left by the secrets they held (GoneReason). */
export function leaveRoom(room: WorkshopRoom, why: GoneReason): void {
  for (const a of room.attendees)
    for (const held of [a.consoleToken, a.viewToken, a.browser]) {
      if (!held) continue;
      room.gone.delete(held); // set again: last in the order of forgetting
      room.gone.set(held, why);
    }
  for (const oldest of room.gone.keys()) {
    if (room.gone.size <= GONE_KEPT) break;
    room.gone.delete(oldest);
  }
  room.attendees = [];
}

/** Why the attendee who held `secret` left the room, if one did (and the room still remembers it). */
export const goneBy = (room: WorkshopRoom, secret: string | undefined): GoneReason | undefined => (secret ? room.gone.get(secret) : undefined);

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

/** Where attendees reach the sandbox: the LAN address when listening there, else the request's origin. */
export const baseOf = (deps: Deps, requestOrigin: string) => deps.settings.lanUrls?.[0]?.replace(/\/$/, '') ?? requestOrigin;

/** Where attendees join: /join with the room's code (just /join while no workshop runs). `base`: the LAN address, or the request's origin. */
export const joinUrlOf = (room: WorkshopRoom, base: string) => (room.code ? `${base}/join?code=${room.code}` : `${base}/join`);

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
