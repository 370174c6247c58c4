// The app's router: GrowingRouter, whose routes' middleware and handlers each start in the request's unit of work
// (inRequestUnit below): a handler that decides and writes after the validators and the guard have awaited theirs
// needs nothing more. GET and HEAD routes are left as they are (reads have no unit; under the test hook strictReads a
// write from one throws all the same, as a write outside any unit), and while no unit is open in the process a
// middleware is called straight: a read pays nothing for this.
import type { Context } from 'hono';
import { enterUnit, leaveUnit, runInUnit, unitsOpen, type Unit } from '../store/unit';
import { GrowingRouter } from './growing-router';

// store/unit.ts carries the current unit only through synchronous calls (no AsyncLocalStorage): app.ts puts the
// request's unit on its context as 'unit' (absent for reads and stories), the router below runs the synchronous part of
// each of the request's middleware and handlers in it, and a handler that awaits something itself (the QR image, a body
// it reads) and then writes runs that part with inRequestUnit(c, fn). Here, in wire/, so that every face uses the same one.
declare module 'hono' {
  interface ContextVariableMap {
    /** The request's unit of work (app.ts); undefined for a read or a story. */
    unit: Unit | undefined;
  }
}

/** Runs `fn` (synchronously) in the unit of work of the request `c`: its writes are the request's. */
export function inRequestUnit<T>(c: Context, fn: () => T): T {
  return runInUnit(c.get('unit'), fn);
}

type Handler = (c: Context, next: () => Promise<void>) => unknown;

const inUnit =
  (handler: Handler): Handler =>
  (c, next) => {
    const unit = unitsOpen() ? c.get('unit') : undefined;
    if (!unit) return handler(c, next);
    const before = enterUnit(unit);
    try {
      return handler(c, next);
    } finally {
      leaveUnit(before);
    }
  };

export class RequestUnitRouter<T> extends GrowingRouter<T> {
  override add(method: string, path: string, entry: T) {
    if (method === 'GET' || method === 'HEAD') return super.add(method, path, entry);
    // Hono adds [handler, route] to its router.
    const [handler, route] = entry as unknown as [Handler, unknown];
    super.add(method, path, [inUnit(handler), route] as unknown as T);
  }
}
