// What a request that meets no route is told (sandbox.md 14), the same way on every face: a known path called with
// another method is a 405 naming the methods it takes (and an Allow header); an unknown path is a 404 naming up to
// three routes of the same face nearest to it. Each face says it in its own envelope (app.ts for v2, v1 and the
// control API; the API Pix face's problem+json in faces/api-pix); the routes are read from the app, never listed.
import { SandboxError } from '../domain/errors';
import { editDistance } from '../lib/nearest';

export interface RouteLike {
  method: string;
  path: string;
}

export type RouteLesson = { allow: string[] } | { nearest: string[] };

const patterns = new Map<string, RegExp>();
/** A hono path ('/v2/transactions/:id', ':id{[0-9]+}', ':id?') as a test of request paths. */
function patternOf(path: string): RegExp {
  let re = patterns.get(path);
  if (!re) {
    const source = path
      .split('/')
      .map((segment) => (segment.startsWith(':') ? (segment.endsWith('?') ? '?[^/]*' : '[^/]+') : segment.replaceAll(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    re = new RegExp(`^${source}/?$`);
    patterns.set(path, re);
  }
  return re;
}

/** A route as the docs write it: /v2/transactions/{id}. */
export const shownPath = (path: string) => path.replaceAll(/:([A-Za-z0-9_]+)(\{[^}]*\})?\??/g, '{$1}');

/** The routes a face answers: its own (a path under `prefix`), without middleware and catch-alls. */
export function faceRoutes(routes: readonly RouteLike[], prefix: string): RouteLike[] {
  return routes.filter((r) => r.method !== 'ALL' && !r.path.includes('*') && (prefix === '' || r.path === prefix || r.path.startsWith(`${prefix}/`)));
}

/** The request path with each of a route's parameters taking the request's segment there (for a distance). */
function filled(pattern: string, path: string): string {
  const want = pattern.split('/');
  const have = path.split('/');
  if (want.length !== have.length) return shownPath(pattern);
  return want.map((segment, i) => (segment.startsWith(':') ? have[i] : segment)).join('/');
}

/** What `method path` is told among `routes` (one face's). */
export function routeLesson(routes: readonly RouteLike[], method: string, path: string): RouteLesson {
  const allow = new Set<string>();
  for (const r of routes) if (patternOf(r.path).test(path)) allow.add(r.method.toUpperCase());
  if (allow.size > 0 && !allow.has(method)) {
    if (allow.has('GET')) allow.add('HEAD');
    return { allow: [...allow].sort() };
  }
  const limit = Math.max(2, Math.ceil(path.length * 0.3));
  const seen = new Set<string>();
  const scored: { route: string; d: number }[] = [];
  for (const r of routes) {
    const route = `${r.method.toUpperCase()} ${shownPath(r.path)}`;
    if (seen.has(route)) continue;
    seen.add(route);
    const d = editDistance(path, filled(r.path, path), limit) + (r.method.toUpperCase() === method ? 0 : 1);
    if (d <= limit) scored.push({ route, d });
  }
  scored.sort((a, b) => a.d - b.d);
  // The nearest, and those about as near (one step further at most): not every route within the limit.
  return { nearest: scored.filter((s) => s.d <= scored[0]!.d + 1).slice(0, 3).map((s) => s.route) };
}

/** The lesson in words, after "No route METHOD PATH." */
export function lessonText(lesson: RouteLesson, method: string, path: string, index: string): string {
  if ('allow' in lesson) return `${path} does not take ${method}; it takes ${lesson.allow.join(', ')}.`;
  const near = lesson.nearest.length ? ` Did you mean ${lesson.nearest.join(' or ')}?` : '';
  return `No route ${method} ${path}.${near} See ${index} for the routes this sandbox serves.`;
}

/** The faces whose misses app.ts answers, by the first segment of a path (the API Pix face answers its own). */
const FACES = ['/v2', '/v1', '/_sandbox'];
const API_PIX = '/api-pix';

/**
 * A request that met no route of the app, as an error of the core's vocabulary: 405 METHOD_NOT_ALLOWED (details.allow)
 * or 404 ROUTE_NOT_FOUND (details.suggestions). An operation of the standard face called on the sandbox's base
 * (/v2/cob rather than /api-pix/v2/cob) is told where that face lives; a path of no face gets the nearest of all.
 */
export function routeMiss(routes: readonly RouteLike[], method: string, path: string): SandboxError {
  const face = FACES.find((f) => path === f || path.startsWith(`${f}/`)) ?? '';
  const lesson = routeLesson(faceRoutes(routes, face), method, path);
  if ('allow' in lesson) return new SandboxError('METHOD_NOT_ALLOWED', lessonText(lesson, method, path, '/docs'), { allow: lesson.allow });
  const standard = faceRoutes(routes, API_PIX).find((r) => r.method.toUpperCase() === method && patternOf(r.path).test(`${API_PIX}${path}`));
  if (standard) {
    return new SandboxError(
      'ROUTE_NOT_FOUND',
      `No route ${method} ${path}: that is an operation of the standard API Pix face, served under ${API_PIX}: ${method} ${API_PIX}${path}, with a bearer token from POST ${API_PIX}/oauth/token (the v2 face's are at /v2/auth).`,
      { resource: 'route', id: `${method} ${path}`, suggestions: [`${method} ${shownPath(standard.path)}`] },
    );
  }
  return new SandboxError('ROUTE_NOT_FOUND', lessonText(lesson, method, path, face === '/v1' || face === '/v2' ? '/docs (or /openapi.json)' : '/docs'), {
    resource: 'route',
    id: `${method} ${path}`,
    suggestions: lesson.nearest,
  });
}
