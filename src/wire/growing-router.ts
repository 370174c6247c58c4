// Hono's default router (SmartRouter over RegExpRouter and TrieRouter) freezes at its first match; this one is the
// same router, rebuilt when routes are added after it has matched: the route groups a request loads on demand
// (route-groups.ts) join the app after it has answered others. Adding is rare (once per group), matching is not.
//
// Routes are kept apart by their path's first segment (/v2, /_sandbox, /api-pix...), each part its own SmartRouter
// with the routes under that segment and those that can match under any (app.use('*'), a first segment that is a
// parameter), in the order they were added: a request meets the part of its own first segment, so the handlers it
// gets, and their order, are those one router over every route would give. What this buys: SmartRouter keeps
// RegExpRouter (one regular expression per method, a match in about a microsecond) only when it takes every route it
// is given, and a few paths of one group (/api-pix/qr/v2/:token beside .../cobv/:token) it refuses would otherwise put
// every request through TrieRouter (several microseconds and a few KB of garbage per match, a sort included).
import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';

/** The literal first segment of a route's path, or null when the route can match under any (a parameter, a wildcard). */
function partOf(path: string): string | null {
  if (!path.startsWith('/')) return null;
  const end = path.indexOf('/', 1);
  const first = end === -1 ? path.slice(1) : path.slice(1, end);
  return /[:*{}()?]/.test(first) ? null : first;
}

const newRouter = <T>() => new SmartRouter<T>({ routers: [new RegExpRouter(), new TrieRouter()] });

export class GrowingRouter<T> implements Router<T> {
  name = 'GrowingRouter';
  #routes: [string, string, T][] = [];
  /** The routers by first segment, and the one for any other first segment; undefined until the next match. */
  #parts: Map<string, Router<T>> | undefined;
  #other: Router<T> = newRouter<T>();

  add(method: string, path: string, handler: T) {
    this.#routes.push([method, path, handler]);
    this.#parts = undefined;
  }

  match(method: string, path: string): Result<T> {
    const parts = this.#parts ?? this.#build();
    const end = path.indexOf('/', 1);
    return (parts.get(end === -1 ? path.slice(1) : path.slice(1, end)) ?? this.#other).match(method, path);
  }

  #build(): Map<string, Router<T>> {
    const parts = new Map<string, Router<T>>();
    const other = newRouter<T>();
    const keys = this.#routes.map(([, path]) => partOf(path));
    for (const key of keys) if (key !== null && !parts.has(key)) parts.set(key, newRouter<T>());
    this.#routes.forEach(([method, path, handler], i) => {
      const key = keys[i]!;
      if (key !== null) parts.get(key)!.add(method, path, handler);
      else {
        other.add(method, path, handler);
        for (const part of parts.values()) part.add(method, path, handler);
      }
    });
    this.#other = other;
    return (this.#parts = parts);
  }
}
