// Hono's default router (SmartRouter over RegExpRouter and TrieRouter) freezes at its first match; this one is the
// same router, rebuilt when routes are added after it has matched: the route groups a request loads on demand
// (route-groups.ts) join the app after it has answered others. Adding is rare (once per group), matching is not: a
// match costs one call more than Hono's own.
import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';

export class GrowingRouter<T> implements Router<T> {
  name = 'GrowingRouter';
  #routes: [string, string, T][] = [];
  #built: Router<T> | undefined;

  add(method: string, path: string, handler: T) {
    this.#routes.push([method, path, handler]);
    this.#built = undefined;
  }

  match(method: string, path: string): Result<T> {
    if (!this.#built) {
      const router = new SmartRouter<T>({ routers: [new RegExpRouter(), new TrieRouter()] });
      for (const [m, p, h] of this.#routes) router.add(m, p, h);
      this.#built = router;
    }
    return this.#built.match(method, path);
  }
}
