// sandbox.intercept({ v2, v1 }) (sandbox.md 8): requests of this process to a base URL (global fetch, node:http and
// node:https clients such as axios, and the service's SDKs) are answered by a sandbox's routes through app.fetch, with
// no port and no DNS. @mswjs/interceptors does the catching (the version line that still runs on Node 20): one
// interceptor for the whole process, applied while at least one base URL is registered, disposed when the last goes.
// A request to any other URL is not answered here, so it goes out untouched.
import { BatchInterceptor } from '@mswjs/interceptors';
import { ClientRequestInterceptor } from '@mswjs/interceptors/ClientRequest';
import { FetchInterceptor } from '@mswjs/interceptors/fetch';
import { syncBuiltinESMExports } from 'node:module';

/** What sandbox.intercept() returns. */
export interface Interception {
  /** Stops answering these base URLs here: requests to them go out to the network again. Calling it twice is harmless. */
  restore(): void;
}

/** Answers a request whose URL has been rewritten onto the sandbox (app.fetch of its Hono app). */
export type InProcessHandler = (request: Request) => Response | Promise<Response>;

interface Route {
  /** origin + path without a trailing slash, e.g. https://api.pague.dev/v1 */
  base: string;
  /** The sandbox's own prefix the base maps to, e.g. http://127.0.0.1:4747/v1 */
  target: string;
  handler: InProcessHandler;
}

const routes = new Map<string, Route>();
let interceptor: BatchInterceptor<[ClientRequestInterceptor, FetchInterceptor]> | undefined;

/** The base URL as a key: absolute http(s), no query or fragment, no trailing slash. Throws a teaching error. */
export function baseKey(face: string, value: string | URL): string {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new Error(`intercept(): ${face} '${String(value)}' is not an absolute URL. Give the base URL your client uses, with its scheme, such as https://api.pague.dev/${face}.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`intercept(): ${face} '${String(value)}' is not an http(s) URL. Give one such as https://api.pague.dev/${face}.`);
  if (url.search || url.hash) throw new Error(`intercept(): ${face} '${String(value)}' has a query or fragment. Give the base URL alone, such as ${url.origin}${url.pathname}.`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function routeOf(url: string): Route | undefined {
  for (const route of routes.values()) {
    if (url === route.base || url.startsWith(`${route.base}/`) || url.startsWith(`${route.base}?`)) return route;
  }
  return undefined;
}

async function answer(route: Route, request: Request): Promise<Response> {
  const rest = request.url.slice(route.base.length);
  const headers = new Headers(request.headers);
  headers.delete('host'); // the request's Host is the intercepted one; the rewritten URL gives the sandbox's
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const body = hasBody ? await request.arrayBuffer() : undefined;
  return route.handler(new Request(`${route.target}${rest}`, { method: request.method, headers, body: body && body.byteLength ? body : undefined }));
}

function ensureInterceptor() {
  if (interceptor) return;
  interceptor = new BatchInterceptor({ name: 'pix-sandbox-intercept', interceptors: [new ClientRequestInterceptor(), new FetchInterceptor()] });
  interceptor.on('request', async ({ request, controller }) => {
    const route = routeOf(request.url);
    if (route) controller.respondWith(await answer(route, request));
  });
  interceptor.apply();
  // The interceptor replaces http.request/get and https.request/get on the modules' objects; this makes ES modules'
  // named imports (`import { request } from 'node:https'`) see the replacements too, and the originals after dispose.
  syncBuiltinESMExports();
}

/**
 * Answers requests to each `base` with `handler`, rewriting `base` to `target`. All bases are checked before any is
 * registered, so a refused call changes nothing.
 */
export function interceptBases(entries: { face: string; base: string | URL; target: string }[], handler: InProcessHandler): Interception {
  if (!entries.length) throw new Error("intercept(): give at least one base URL, as { v2: 'https://…/v2' } or { v1: 'https://api.pague.dev/v1' }.");
  const keys = entries.map((e) => ({ ...e, key: baseKey(e.face, e.base) }));
  const seen = new Set<string>();
  for (const { face, key } of keys) {
    if (routes.has(key) || seen.has(key)) throw new Error(`intercept(): ${face} ${key} is already intercepted in this process. Call restore() on that interception first, or give another base URL.`);
    seen.add(key);
  }
  for (const { key, target } of keys) routes.set(key, { base: key, target: target.replace(/\/+$/, ''), handler });
  ensureInterceptor();
  let restored = false;
  return {
    restore() {
      if (restored) return;
      restored = true;
      for (const { key } of keys) routes.delete(key);
      if (routes.size === 0 && interceptor) {
        interceptor.dispose();
        interceptor = undefined;
        syncBuiltinESMExports();
      }
    },
  };
}
