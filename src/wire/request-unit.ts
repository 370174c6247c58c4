// The app's router: GrowingRouter, whose routes' middleware and handlers each start in the request's unit of work
// (lib/request-unit.ts): a handler that decides and writes after the validators and the guard have awaited theirs
// needs nothing more. GET and HEAD routes are left as they are (reads have no unit; under the test hook strictReads a
// write from one throws all the same, as a write outside any unit), and while no unit is open in the process a
// middleware is called straight: a read pays nothing for this.
import type { Context } from 'hono';
import { enterUnit, leaveUnit, unitsOpen } from '../store/unit';
import { GrowingRouter } from './growing-router';
import '../lib/request-unit';

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
