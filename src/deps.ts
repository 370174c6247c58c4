// What every service verb and route receives: built once by createSandbox(), never read from globals.
import type { Clock } from './lib/clock';
import type { Ids } from './lib/ids';
import type { Store } from './store/store';
import type { Scheduler } from './services/scheduler';
import type { Clocks } from './services/clocks';
import type { Tokens } from './services/tokens';
import type { Bus } from './lib/bus';
import type { RequestLog } from './services/request-log';
import type { WorkshopRoom } from './domain/workshop';
import type { Retention } from './domain/retention';
import type { OwnListeners } from './webhooks/own-listeners';
import type { HolderKind } from './services/holders';

export interface Settings {
  /** Host (no scheme) that BR Code locations point at. */
  publicHost: string;
  ispb: string;
  adminToken?: string;
  webhookUrl?: string;
  /** The vendor word of webhook header names (--webhook-header-word); absent: Service. */
  webhookHeaderWord?: string;
  /** Where phones on the same network reach this sandbox (listening on 0.0.0.0 or ::); empty otherwise. */
  lanUrls?: string[];
  /** The sandbox's own listener (set by listen()): the join address a room on loopback shows, for the presenter's screen. */
  ownUrl?: string;
  /** On loopback, the address phones would open after a restart with --host 0.0.0.0 (set by listen(); the room names it). */
  lanUrlIfOpen?: string;
  /** Where the local CA is kept (client certificates of the standard face are issued by it). */
  home: string;
  /** --https --mtls: /api-pix/v2 requires a client certificate of the local CA (sandbox.md 9). */
  mtls: boolean;
  /** --max-records: records held before creates answer 507 STORAGE_FULL; absent: derived from the heap limit (services/capacity.ts). */
  maxRecords?: number;
  /** --max-bytes: the same budget in bytes of record weight (store/weight.ts); wins over maxRecords' BYTES_PER_RECORD each. */
  maxBytes?: number;
  /** --strict: an unknown field of a request to the service's faces is a 400, not a warning (wire/unknown-fields.ts). */
  strict?: boolean;
  /** --retain: tenants made through the control API are deleted once untouched this long (services/retention.ts). */
  retainMs?: number;
  /** --retain-transactions: settled transactions are deleted once unchanged this long (services/retention.ts). */
  retainTransactionsMs?: number;
}

export interface Deps {
  store: Store;
  /** The sandbox clock. A tenant's time is clocks.of(account): its own clock, or this one (services/clocks.ts). */
  clock: Clock;
  clocks: Clocks;
  ids: Ids;
  log: (line: string) => void;
  fetch: typeof fetch;
  scheduler: Scheduler;
  tokens: Tokens;
  settings: Settings;
  /** Changes for the live stream (sandbox.md 4.9); publishing never throws. */
  bus: Bus;
  /** The request log (sandbox.md 14): in memory, cleared by reset. */
  requestLog: RequestLog;
  /** The workshop room (sandbox.md 5.2): in memory, beside the state. */
  workshop: WorkshopRoom;
  /** Retention (sandbox.md 6.1): touches of tenants, and the sweeps that delete what is kept too long. */
  retention: Retention;
  /** The sandbox's listeners, once listening: no webhook is delivered to them (sandbox.md 11). */
  listeners: OwnListeners;
  /** noteHolder() of services/holders.ts on this store: how code beside services (webhooks/) notes a record it makes. */
  noteHolder: (kind: HolderKind, id: string, accountId: string) => void;
}
