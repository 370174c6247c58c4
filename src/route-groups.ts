// The app's route groups (faces, control API, pages, documents), in the order createSandbox has always registered
// them, each imported with import() so that the bundle keeps it in a chunk of its own. The CLI loads a group on the
// first request under its paths (`lazyRoutes`): a start does not compile the schema library and the routes' schemas
// (built when their modules are imported) before its first answer, and GET /_sandbox/health, which a harness polls,
// is answered without them. In process, createSandbox loads every group before it returns, as before.
import type { Hono } from 'hono';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Deps } from './deps';
import type { ControlHooks } from './control';
import type { Principal } from './domain/workshop';
import type { ConsoleQuery } from './wire/console-query';
import type { Env } from './wire/env';

/** Registers a group on an app as createSandbox's app always had it (routes and their OpenAPI entries). */
type Mount = (app: OpenAPIHono<Env>) => void;

interface Group {
  name: string;
  /** The request paths it serves: `/x/*` is /x and everything under it, anything else one path. */
  paths: string[];
  load(): Promise<Mount>;
}

const matches = (pattern: string, path: string) =>
  pattern.endsWith('/*') ? path === pattern.slice(0, -2) || path.startsWith(pattern.slice(0, -1)) : path === pattern;

export function routeGroups(deps: Deps, hooks: ControlHooks, document: () => Promise<Record<string, unknown>>): Group[] {
  return [
    { name: 'v2', paths: ['/v2/*'], load: async () => { const { v2Routes } = await import('./faces/v2'); return (app) => app.route('/v2', v2Routes(deps)); } },
    { name: 'v1', paths: ['/v1/*'], load: async () => { const { v1Routes } = await import('./faces/v1'); return (app) => app.route('/v1', v1Routes(deps)); } },
    { name: 'api-pix', paths: ['/api-pix/*'], load: async () => { const { apiPixRoutes } = await import('./faces/api-pix'); return (app) => app.route('/api-pix', apiPixRoutes(deps)); } },
    {
      name: 'control',
      paths: ['/_sandbox/*'],
      load: async () => {
        const { controlRoutes } = await import('./control');
        // GET /_sandbox/console answers the console's sections: the pages' markup, handed to the control API from
        // here (the pages' code loaded at its first call, not at start-up), so that no surface imports another.
        const consoleFragment = async (q: ConsoleQuery, principal: Principal) => (await import('./pages/console-page')).consoleFragment(deps, q, principal);
        return (app) => app.route('/_sandbox', controlRoutes(deps, hooks, consoleFragment));
      },
    },
    { name: 'location', paths: ['/pix/qr/*'], load: async () => { const { registerLocation } = await import('./pages/location'); return (app) => registerLocation(app, deps); } },
    {
      name: 'documents',
      paths: ['/openapi.json', '/docs/*', '/openapi-api-pix.json'],
      load: async () => {
        // One import after the other (here and below): a runner's module linker (jest's vm modules) may stall on two
        // graphs that share modules linking at once.
        const { registerDocs } = await import('./faces/docs');
        const { registerApiPixDocument } = await import('./faces/api-pix/document');
        return (app) => {
          registerDocs(app, document);
          registerApiPixDocument(app);
        };
      },
    },
    { name: 'join', paths: ['/join', '/join/forget'], load: async () => { const { registerJoinPage } = await import('./pages/join'); return (app) => registerJoinPage(app, deps); } },
    {
      name: 'pages',
      paths: ['/', '/assets/*', '/pay', '/c/*'],
      load: async () => {
        const { registerPages } = await import('./pages');
        const { registerPayerPage } = await import('./pages/payer');
        const { registerLinkPages } = await import('./pages/link');
        return (app) => {
          registerPages(app, deps);
          registerPayerPage(app, deps);
          registerLinkPages(app, deps);
        };
      },
    },
  ];
}

export interface RouteGroups {
  /** Undefined when every group `path` needs is in the app; else a promise of that. */
  ready(path: string): Promise<void> | undefined;
  /** Every group in the app (what createSandbox waits for in process). */
  all(): Promise<void>;
}

/**
 * Puts the route groups into `app` (whose router must take routes after it has matched: GrowingRouter) as requests
 * need them. No path is under two groups, so the order groups come in does not change which handler a request meets
 * (test/foundation/lazy-routes.test.ts); /openapi.json is made from every group, mounted in the order above on an
 * app of its own, so the document is the same whatever was loaded first. `answered`: paths the
 * app answers before any group is in (the CLI's GET /_sandbox/health), which load none.
 */
export function mountRouteGroups(app: Hono<Env>, deps: Deps, hooks: ControlHooks, answered: ReadonlySet<string> = new Set()): RouteGroups {
  const zodOpenApi = () => import('@hono/zod-openapi');
  const loads = new Map<Group, Promise<Mount>>();
  const load = (g: Group) => {
    let p = loads.get(g);
    if (!p) {
      // The schema library first: it extends zod with .openapi(), which the group's schemas call as they are built.
      p = zodOpenApi().then(() => g.load());
      p.catch(() => loads.delete(g)); // tried again by the next request
      loads.set(g, p);
    }
    return p;
  };
  const document = async () => {
    const [{ OpenAPIHono }, { openApiDocument }, mounts] = await Promise.all([zodOpenApi(), import('./faces/docs'), Promise.all(groups.map(load))]);
    const whole = new OpenAPIHono<Env>();
    for (const mount of mounts) mount(whole);
    return openApiDocument(whole, hooks.version);
  };
  const groups = routeGroups(deps, hooks, document);
  const inApp = new Map<Group, Promise<void>>();
  const done = new Set<Group>();
  const put = (g: Group): Promise<void> => {
    let p = inApp.get(g);
    if (!p) {
      p = Promise.all([zodOpenApi(), load(g)]).then(([{ OpenAPIHono }, mount]) => {
        const sub = new OpenAPIHono<Env>();
        mount(sub);
        app.route('/', sub);
        done.add(g);
      });
      p.catch(() => inApp.delete(g));
      inApp.set(g, p);
    }
    return p;
  };
  return {
    ready(path) {
      if (answered.has(path)) return undefined;
      let waits: Promise<void>[] | undefined;
      for (const g of groups) if (!done.has(g) && g.paths.some((p) => matches(p, path))) (waits ??= []).push(put(g));
      return waits && Promise.all(waits).then(() => {});
    },
    async all() {
      // One group after the other, in the order of the app's handlers; imported one at a time too (see above).
      await zodOpenApi();
      for (const g of groups) await put(g);
    },
  };
}
