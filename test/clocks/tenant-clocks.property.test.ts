// Property (sandbox.md 4.6): several tenants, each on a clock of its own, act and advance their clocks interleaved at
// random in one sandbox; each tenant's history (charges, events, deliveries with every attempt's time, clock) equals
// that of a run of that tenant's steps alone in a fresh sandbox. Deliveries all get 500, so retries fall due on the
// tenants' clocks. Run time is bounded (numRuns, short sequences); PROPERTY_SEED=<seed> replays a run.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness';
import { advanceTenant, chargeOf, historyOf, newTenant, type Tenant } from './support';

const TENANTS = 3;
type Step = { tenant: number } & ({ op: 'charge'; expiresIn: number } | { op: 'pay'; pick: number } | { op: 'advance'; seconds: number });

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ tenant: fc.nat(TENANTS - 1), op: fc.constant('charge' as const), expiresIn: fc.integer({ min: 300, max: 7200 }) }),
  fc.record({ tenant: fc.nat(TENANTS - 1), op: fc.constant('pay' as const), pick: fc.nat(20) }),
  fc.record({ tenant: fc.nat(TENANTS - 1), op: fc.constant('advance' as const), seconds: fc.integer({ min: 1, max: 7200 }) }),
);

async function sandbox(): Promise<Harness> {
  return startHarness({ fetch: async () => new Response('down', { status: 500 }) });
}

/** Runs `steps` in `h` for the tenants named (made in index order, each with its own clock); returns them by index. */
async function play(h: Harness, steps: Step[], only?: number): Promise<Map<number, Tenant>> {
  const tenants = new Map<number, Tenant>();
  for (let i = 0; i < TENANTS; i++) if (only === undefined || only === i) tenants.set(i, await newTenant(h, `tenant ${i}`, { hook: `http://t${i}.test/hook` }));
  const charges = new Map<number, string[]>();
  for (const s of steps) {
    const t = tenants.get(s.tenant);
    if (!t) continue;
    const mine = charges.get(s.tenant) ?? [];
    charges.set(s.tenant, mine);
    if (s.op === 'charge') mine.push(await chargeOf(h, t, s.expiresIn, `charge ${mine.length}`));
    else if (s.op === 'pay' && mine.length > 0) await h.control('POST', `/transactions/${mine[s.pick % mine.length]}/pay`);
    else if (s.op === 'advance') expect((await advanceTenant(h, t, s.seconds)).status).toBe(200);
    await h.sb.settle();
  }
  return tenants;
}

test('each tenant’s history with others advancing beside it equals a run of that tenant alone', async () => {
  const seed = process.env.PROPERTY_SEED === undefined ? undefined : Number(process.env.PROPERTY_SEED);
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
      const together = await sandbox();
      try {
        const tenants = await play(together, steps);
        for (const [i, t] of tenants) {
          const alone = await sandbox();
          try {
            const [solo] = (await play(alone, steps, i)).values();
            expect(await historyOf(together, t), `tenant ${i}`).toEqual(await historyOf(alone, solo!));
          } finally {
            await alone.sb.close();
          }
        }
      } finally {
        await together.sb.close();
      }
    }),
    { numRuns: 8, ...(seed === undefined ? {} : { seed }), verbose: 1 },
  );
}, 300_000);
