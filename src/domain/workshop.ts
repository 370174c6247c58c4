// The workshop room's shape (sandbox.md 5.2), held beside the state in memory; its verbs are in services/workshop.ts.
// A step is something an attendee's tenant did for the first time (a token, a charge, a paid charge...), read from the
// changes the sandbox publishes (lib/bus.ts), never from the attendee's say-so.

export const DEFAULT_WORKSHOP_MAX = 200;

/** What reaches a step: the first message of the bus of this sort, for the attendee's account. */
export type StepTrigger = 'token' | 'charge' | 'payment' | 'webhook' | 'refund' | 'withdrawal';

export interface WorkshopStep {
  /** The step's name in GET /_sandbox/workshop and the CSV (letters, digits, dashes). */
  id: string;
  label: string;
  on: StepTrigger;
}

/** The steps of the default workshop template; a template may name its own (createWorkshopRoom's `steps`). */
export const DEFAULT_STEPS: readonly WorkshopStep[] = [
  { id: 'token', label: 'First token', on: 'token' },
  { id: 'charge', label: 'First charge', on: 'charge' },
  { id: 'payment', label: 'First payment', on: 'payment' },
  { id: 'webhook', label: 'Webhook delivered (2xx)', on: 'webhook' },
  { id: 'refund', label: 'First refund', on: 'refund' },
  { id: 'withdrawal', label: 'First withdrawal', on: 'withdrawal' },
];

export interface Attendee {
  name: string;
  accountId: string;
  /** Opens the console scoped to this attendee's tenant. */
  consoleToken: string;
  /** Opens the same console read-only (GETs only): the presenter's way in to help. */
  viewToken: string;
  /** The join cookie of the browser they joined from (always a value the sandbox made); absent for one the presenter added. */
  browser?: string;
  joinedAt: string;
  /** When each step (by id) was first reached. */
  steps: Record<string, string>;
}

export interface WorkshopRoom {
  /** A workshop was started (--workshop or POST /_sandbox/workshop) and not ended. */
  started: boolean;
  /** Joining is open. */
  open: boolean;
  /** The room's code, which /join takes (the projector's join URL and QR carry it); made when a workshop starts, null while none runs. */
  code: string | null;
  /** What the presenter called the room (the projector's heading); null when they gave none, or none runs. */
  name: string | null;
  max: number;
  steps: readonly WorkshopStep[];
  attendees: Attendee[];
  /**
   * Why the attendees who left the room did (their tenant went with the workshop's end or a reset), by each secret they
   * held (console and view tokens, join cookie), so their pages say so on a reload instead of asking for anything.
   */
  gone: Map<string, GoneReason>;
}

export type GoneReason = 'ended' | 'reset';

/** Who is calling the control API: the presenter (the admin token, or anyone when none is set) or one attendee. */
export type Principal = { kind: 'admin' } | { kind: 'attendee'; accountId: string; name: string; readOnly: boolean };

/** A room; `code` is the code of a room that starts open (a workshop running from the start). */
export function createWorkshopRoom(options: { code?: string; max?: number; steps?: readonly WorkshopStep[] } = {}): WorkshopRoom {
  const open = options.code !== undefined;
  return { started: open, open, code: options.code ?? null, name: null, max: options.max ?? DEFAULT_WORKSHOP_MAX, steps: options.steps ?? DEFAULT_STEPS, attendees: [], gone: new Map() };
}

/** The step kinds a change of an attendee's tenant reaches (a change of a bus message's shape, structurally). */
export function triggersOf(message: { kind: string; type?: string; status?: string | number; state?: string; method?: string; path?: string }): StepTrigger[] {
  switch (message.kind) {
    case 'request': {
      const ok = typeof message.status === 'number' && message.status >= 200 && message.status < 300;
      return ok && message.method === 'POST' && /\/(auth|oauth\/token|token)$/.test(message.path ?? '') ? ['token'] : [];
    }
    case 'transaction':
      if (message.type === 'payment') return message.status === 'completed' ? ['charge', 'payment'] : ['charge'];
      if (message.type === 'refund') return ['refund'];
      if (message.type === 'withdrawal') return ['withdrawal'];
      return [];
    case 'delivery':
      return message.state === 'succeeded' ? ['webhook'] : [];
    default:
      return [];
  }
}

/** The CSV text of a cell: quoted when it must be, and a name a spreadsheet would run as a formula (= + - @) made text. */
export function csvCell(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n']/.test(text) || text !== value ? `"${text.replaceAll('"', '""')}"` : text;
}
