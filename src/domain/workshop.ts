// The workshop room's shape (sandbox.md 5.2), held beside the state in memory; its verbs are in services/workshop.ts.

export const DEFAULT_WORKSHOP_MAX = 200;

export interface Attendee {
  name: string;
  accountId: string;
  /** Opens the console scoped to this attendee's tenant. */
  consoleToken: string;
  /** The joining browser's cookie: the same browser joining again gets the same tenant. */
  browser: string;
  joinedAt: string;
}

export interface WorkshopRoom {
  /** A workshop was started (--workshop or POST /_sandbox/workshop) and not ended. */
  started: boolean;
  /** Joining is open. */
  open: boolean;
  max: number;
  attendees: Attendee[];
}

export function createWorkshopRoom(options: { open?: boolean; max?: number } = {}): WorkshopRoom {
  return { started: !!options.open, open: !!options.open, max: options.max ?? DEFAULT_WORKSHOP_MAX, attendees: [] };
}
