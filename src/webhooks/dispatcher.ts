// Deliveries of events to webhook endpoints. (Filled in by the webhooks work: signing, attempts on the sandbox
// clock, retries, delivery log.)
import type { Deps } from '../deps';
import type { Account } from '../domain/types';
import type { SandboxEvent } from './events';

export function createDeliveries(_deps: Deps, _account: Account, _event: SandboxEvent): void {}
