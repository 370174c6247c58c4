// Fault injection (sandbox.md 4.5): rules set with PUT /_sandbox/faults add latency and/or answer an error on the
// matching v1/v2 requests before they reach their route, so an injected error never changes state.
import type { MiddlewareHandler } from 'hono';
import type { Deps } from '../../deps';
import { INJECTED_FAULT } from '../../domain/errors';
import { errorName } from '../errors';
import type { Env } from '../env';

/** Where app.ts mounts the fault middleware; /openapi.json declares 429 and 503 on the routes under them. */
export const FAULT_PREFIXES = ['/v2/', '/v1/'] as const;

export interface FaultRule {
  method: string; // '*' or an HTTP method
  path: string; // exact, or with '*' standing for any run of characters
  status?: number;
  latencyMs?: number;
  rate: number; // 0..1
  times?: number; // how many more matches it applies to; absent = no limit
}

export class Faults {
  rules: FaultRule[] = [];

  match(method: string, path: string, chance: () => number): FaultRule | undefined {
    const rule = this.rules.find((r) => (r.method === '*' || r.method.toUpperCase() === method) && globMatch(r.path, path) && (r.times === undefined || r.times > 0));
    if (!rule || chance() >= rule.rate) return undefined;
    if (rule.times !== undefined) rule.times -= 1;
    return rule;
  }
}

function globMatch(pattern: string, path: string): boolean {
  const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return re.test(path);
}

export function injectFaults(deps: Deps, faults: Faults): MiddlewareHandler<Env> {
  return async (c, next) => {
    if (faults.rules.length === 0) return next();
    const rule = faults.match(c.req.method, c.req.path, () => deps.ids.randomInt(1_000_000) / 1_000_000);
    if (!rule) return next();
    if (rule.latencyMs) await new Promise((done) => setTimeout(done, rule.latencyMs));
    if (!rule.status) return next();
    const status = rule.status;
    const message = `Injected fault: ${status} from the rule for ${rule.method} ${rule.path} (PUT /_sandbox/faults; DELETE /_sandbox/faults clears it).`;
    // Like the errors of wire/errors.ts: a 429 or 503 says when to come back; POST /v2/auth keeps its small body.
    const headers: Record<string, string> = status === 429 || status === 503 ? { 'Retry-After': '1' } : {};
    if (c.req.path === '/v2/auth') return c.json({ error: errorName(status), message }, status as 500, headers);
    return c.json(
      {
        statusCode: status,
        error: errorName(status),
        message,
        timestamp: deps.clock.iso(),
        traceId: c.get('traceId'),
        details: { code: status === 429 ? 'RATE_LIMITED' : INJECTED_FAULT },
      },
      status as 500,
      headers,
    );
  };
}
