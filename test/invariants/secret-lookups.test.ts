// POST /v2/auth and the v1 guard find a credential by client id and a key by its digest (services/secrets.ts), not by
// scanning every tenant. The index is only a hint: whatever changed since it was built (an account made, deleted,
// reset away, or a write undone), the answer is the one the state gives.
import { describe, expect, test } from 'vitest';
import { DEFAULT, failEachWrite, startHarness } from '../helpers/harness';
import { v1 } from '../helpers/v1';
import type { UnitHooks } from '../../src/store/unit';

const auth = (h: Awaited<ReturnType<typeof startHarness>>, client_id: string, client_secret: string) => h.api('POST', '/v2/auth', { body: { client_id, client_secret } });

describe('credential and API key lookups follow the state', () => {
  test('an account made after the first lookups is found; once deleted, its credential and key are refused', async () => {
    const h = await startHarness();
    expect((await auth(h, DEFAULT.full.clientId, DEFAULT.full.clientSecret)).status).toBe(200);
    expect((await v1(h, '/customers')).status).toBe(200);
    const made = await h.control('POST', '/accounts', { name: 'Later' });
    expect(made.status, made.text).toBe(201);
    const [cred] = made.body.credentials;
    const [{ key }] = made.body.apiKeys;
    expect((await auth(h, cred.clientId, cred.clientSecret)).status).toBe(200);
    expect((await auth(h, cred.clientId, `${cred.clientSecret}x`)).status).toBe(401);
    expect((await v1(h, '/customers', { key })).status).toBe(200);
    expect((await h.control('DELETE', `/accounts/${made.body.id}`)).status).toBe(200);
    expect((await auth(h, cred.clientId, cred.clientSecret)).status).toBe(401);
    expect((await v1(h, '/customers', { key })).status).toBe(401);
    // The default account is still found after the rebuilds those misses caused.
    expect((await auth(h, DEFAULT.full.clientId, DEFAULT.full.clientSecret)).status).toBe(200);
  });

  test('a credential added to an existing account is found at once; a reset forgets every account made', async () => {
    const h = await startHarness();
    const made = await h.control('POST', '/accounts', { name: 'Reset me' });
    const [cred] = made.body.credentials;
    expect((await auth(h, cred.clientId, cred.clientSecret)).status).toBe(200);
    const added = await h.control('POST', `/accounts/${made.body.id}/credentials`, { permissions: ['PIX:WRITE'] });
    expect(added.status, added.text).toBe(201);
    expect((await auth(h, added.body.clientId, added.body.clientSecret)).status).toBe(200);
    expect((await h.control('POST', '/reset')).status).toBe(200);
    expect((await auth(h, cred.clientId, cred.clientSecret)).status).toBe(401);
    expect((await v1(h, '/customers', { key: made.body.apiKeys[0].key })).status).toBe(401);
  });

  test('an account whose making failed part way (every write in turn) leaves no credential or key that works', async () => {
    const hooks: UnitHooks = {};
    const h = await startHarness({ testHooks: hooks });
    const spec = { name: 'Half made', credentials: [{ clientId: 'mp_test_half_made_0001', clientSecret: 'half-made-secret' }], apiKeys: [{ key: 'mp_test_half_made_key_0001' }] };
    const failed = await failEachWrite(
      hooks,
      () => h.control('POST', '/accounts', spec),
      async () => {
        expect((await auth(h, 'mp_test_half_made_0001', 'half-made-secret')).status).toBe(401);
        expect((await v1(h, '/customers', { key: 'mp_test_half_made_key_0001' })).status).toBe(401);
      },
    );
    expect(failed).toBeGreaterThan(0);
    expect((await auth(h, 'mp_test_half_made_0001', 'half-made-secret')).status).toBe(200);
    expect((await v1(h, '/customers', { key: 'mp_test_half_made_key_0001' })).status).toBe(200);
  });
});
