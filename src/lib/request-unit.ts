// A request's unit of work on its Hono context. store/unit.ts carries the current unit only through synchronous calls
// (no AsyncLocalStorage): app.ts puts the request's unit on its context as 'unit' (absent for reads and stories), the
// app's router (wire/request-unit.ts) runs the synchronous part of each of the request's middleware and handlers in
// it, and a handler that awaits something itself (the QR image, a body it reads) and then writes runs that part with
// inRequestUnit(c, fn). Here, below the faces, so that every face uses the same one.
import type { Context } from 'hono';
import { runInUnit, type Unit } from '../store/unit';

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
