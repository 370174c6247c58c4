// What a hostile or careless client on the same machine tried (issue 41), each reproduced as it was found: a date
// that walks a loop forever, a token used beyond its scope or its credential's permissions, a control route that
// finds another tenant's cob by txid. Each answers a 4xx (or its right answer), changes nothing, and the sandbox keeps
// serving. The doors' two gaps are in test/server/doors.test.ts.
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { DEFAULT, startHarness, type ApiResponse, type Harness } from '../helpers/harness';
import { apiPix, cobBody, KEYS, pixToken, putCob, TXID } from '../helpers/api-pix';

let h: Harness;
afterEach(async () => {
  await h?.sb.close();
});

const v1 = (method: string, path: string, body?: unknown) => h.api(method, path, { body, headers: { 'x-api-key': DEFAULT.apiKey } });

describe('no request holds the event loop', () => {
  test('GET /v1/metrics?from=9999-12-31&to=9999-12-31 answers that one day', async () => {
    h = await startHarness();
    const res = await v1('GET', '/v1/metrics?from=9999-12-31&to=9999-12-31');
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body.groupedByDay)).toEqual(['9999-12-31']);
  });

  test('GET /v1/metrics after PUT /_sandbox/clock {"now":"9999-12-31T12:00:00Z"} answers the 30 days ending that day', async () => {
    h = await startHarness();
    const clock = await h.control('PUT', '/clock', { now: '9999-12-31T12:00:00Z' });
    expect(clock.status, clock.text).toBe(200);
    const res = await v1('GET', '/v1/metrics');
    expect(res.status, res.text).toBe(200);
    const days = Object.keys(res.body.groupedByDay);
    expect([days.length, days[0], days.at(-1)]).toEqual([30, '9999-12-02', '9999-12-31']);
  });

  /** Dates a client can write that sit at, or past, the ends of what a date can be. */
  const EXTREMES = [
    '0000-01-01',
    '1969-12-31',
    '9999-12-31',
    '10000-01-01',
    '+010000-01-01',
    '-000001-01-01',
    '0000-01-01T00:00:00Z',
    '1970-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
    '9999-12-31T23:59:59-23:59',
    '0001-01-01T00:00:00+23:59',
    '2016-12-31T23:59:60Z',
    '+010000-01-01T00:00:00Z',
    '-271821-04-20T00:00:00Z',
  ];
  /** Every date a client sends, on every face: how to send `value` in that place. */
  const PLACES: [string, (value: string) => Promise<ApiResponse>][] = [
    ['v1 metrics from', (v) => v1('GET', `/v1/metrics?from=${encodeURIComponent(v)}`)],
    ['v1 metrics to', (v) => v1('GET', `/v1/metrics?to=${encodeURIComponent(v)}`)],
    ['v1 metrics from and to', (v) => v1('GET', `/v1/metrics?from=${encodeURIComponent(v)}&to=${encodeURIComponent(v)}`)],
    ['v1 payment link expiresAt', (v) => v1('POST', '/v1/charges', { projectId: DEFAULT.projectId, name: 'Link', amount: 10, paymentMethods: ['pix'], expiresAt: v })],
    ...(['cob', 'cobv', 'pix', 'loc'] as const).map((list): [string, (v: string) => Promise<ApiResponse>] => [
      `API Pix GET /${list} inicio and fim`,
      (v) => apiPix(h, 'GET', `/${list}?inicio=${encodeURIComponent(v)}&fim=${encodeURIComponent(v)}`),
    ]),
    ['API Pix GET /webhook inicio', (v) => apiPix(h, 'GET', `/webhook?inicio=${encodeURIComponent(v)}`)],
    [
      'API Pix cobv dataDeVencimento',
      (v) =>
        apiPix(h, 'PUT', `/cobv/${TXID}`, {
          body: { calendario: { dataDeVencimento: v, validadeAposVencimento: 3650 }, devedor: { cpf: '12345678909', nome: 'Francisco da Silva' }, valor: { original: '100.00', juros: { modalidade: 6, valorPerc: '1.00' } }, chave: KEYS.cnpj },
        }),
    ],
    [
      'API Pix cobv descontoDataFixa data',
      (v) =>
        apiPix(h, 'PUT', `/cobv/${TXID}`, {
          body: { calendario: { dataDeVencimento: '2026-03-12' }, devedor: { cpf: '12345678909', nome: 'Francisco da Silva' }, valor: { original: '100.00', desconto: { modalidade: 1, descontoDataFixa: [{ data: v, valorPerc: '1.00' }] } }, chave: KEYS.cnpj },
        }),
    ],
    ['control PUT /_sandbox/clock now', (v) => h.control('PUT', '/clock', { now: v, frozen: true })],
  ];

  /** Sends the value and times it: an answer below 500, given within a second of the event loop, and health after. */
  async function answersPromptly(place: string, send: (v: string) => Promise<ApiResponse>, value: string) {
    const started = performance.now();
    const res = await send(value);
    const took = performance.now() - started;
    expect(res.status, `${place} = ${value}: ${res.text}`).toBeLessThan(500);
    expect(took, `${place} = ${value} took ${took} ms`).toBeLessThan(1000);
    return res;
  }

  test.each(PLACES)('%s: every extreme date answers promptly with a 2xx or a 4xx', async (place, send) => {
    h = await startHarness();
    for (const value of EXTREMES) await answersPromptly(place, send, value);
    // A paid cobv due long ago is charged its interest per business day: counted, not walked day by day.
    expect((await h.control('GET', '/health')).status).toBe(200);
  });

  test.each(PLACES)('%s: any date a client can print answers promptly (property)', async (place, send) => {
    h = await startHarness();
    const anyDate = fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((d) => d.toISOString());
    const asDay = anyDate.map((iso) => iso.slice(0, iso.indexOf('T')));
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyDate, asDay), async (value) => {
        await answersPromptly(place, send, value);
      }),
      { numRuns: 15 },
    );
  });

  test('a date past year 9999 is refused where it is taken, naming the parameter', async () => {
    h = await startHarness();
    const metrics = await v1('GET', '/v1/metrics?from=1969-12-31');
    expect(metrics.status, metrics.text).toBe(400);
    expect(metrics.body.details.fields).toEqual([{ field: 'from', message: expect.stringContaining('1970-01-01 to 9999-12-31') }]);
    const link = await v1('POST', '/v1/charges', { projectId: DEFAULT.projectId, name: 'Link', amount: 10, paymentMethods: ['pix'], expiresAt: '9999-12-31T23:59:59-01:00' });
    expect(link.status, link.text).toBe(400);
    expect(link.body.details.fields).toEqual([{ field: 'expiresAt', message: expect.stringContaining('9999-12-31T23:59:59.999Z') }]);
    const list = await apiPix(h, 'GET', '/cob?inicio=2026-01-01T00:00:00Z&fim=9999-12-31T23:59:59-01:00');
    expect(list.status, list.text).toBe(400);
    expect(list.body.violacoes).toEqual([expect.objectContaining({ propriedade: expect.stringContaining('fim') })]);
    const cobv = await apiPix(h, 'PUT', `/cobv/${TXID}`, {
      body: { calendario: { dataDeVencimento: '9999-12-30', validadeAposVencimento: 30 }, devedor: { cpf: '12345678909', nome: 'Francisco da Silva' }, valor: { original: '100.00' }, chave: KEYS.cnpj },
    });
    expect(cobv.status, cobv.text).toBe(400);
    expect(cobv.body.violacoes).toEqual([expect.objectContaining({ propriedade: 'cobv.calendario.validadeAposVencimento' })]);
    expect((await apiPix(h, 'GET', `/cobv/${TXID}`)).status).toBe(404);
  });

  test('a story played at the end of the clock is refused before its first step, and the clock stays in its range', async () => {
    h = await startHarness();
    await h.control('PUT', '/clock', { now: '9999-12-31T23:58:00Z', frozen: true });
    const before = await h.control('GET', `/accounts/${DEFAULT.accountId}/transactions`);
    const stories = await h.control('GET', '/stories');
    const timed = stories.body.items.find((s: { name: string }) => s.name === 'expired-charge');
    expect(timed, stories.text).toBeDefined();
    const res = await h.control('POST', `/stories/${timed.name}`, {});
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.fields).toEqual([{ field: 'clock', message: expect.stringContaining('9999-12-31T23:59:59.999Z') }]);
    expect((await h.control('GET', '/clock')).body.now).toBe('9999-12-31T23:58:00.000Z');
    expect((await h.control('GET', `/accounts/${DEFAULT.accountId}/transactions`)).text).toBe(before.text);
  });
});

describe('a token grants what its scope and its credential say, on every face, at every request', () => {
  /** How many charges the default account holds. */
  const payments = async () => (await h.control('GET', `/accounts/${DEFAULT.accountId}/transactions?type=payment`)).body.total as number;

  test('an API Pix token of scope cob.read is refused on every v2 write (POST /v2/pix, POST /v2/withdrawals)', async () => {
    h = await startHarness();
    const token = await pixToken(h, 'cob.read');
    const charge = await h.api('POST', '/v2/pix', { body: { amount: 10, description: 'x' }, token });
    expect(charge.status, charge.text).toBe(403);
    expect(charge.body.details.code).toBe('PERMISSION_DENIED');
    expect(charge.body.message).toContain("scope 'cob.read'");
    const withdrawal = await h.api('POST', '/v2/withdrawals', { body: { amount: 20, pixKey: 'ana@example.com', pixKeyType: 'email', holderName: 'Ana', holderDocument: '12345678909', holderDocumentType: 'cpf' }, token });
    expect(withdrawal.status, withdrawal.text).toBe(403);
    expect(await payments(), 'a refused create made nothing').toBe(0);
  });

  /** The token kinds a client may hold for the default FULL_ACCESS credential. */
  const TOKENS = {
    'v2 token': (hh: Harness) => hh.token(),
    'API Pix token of every scope': (hh: Harness) => pixToken(hh),
  } as const;
  /** One operation per face, each needing what PIX:WRITE (v2) or cob.write (API Pix) gives. */
  const FACES = {
    'v2 POST /v2/pix': (hh: Harness, token: string) => hh.api('POST', '/v2/pix', { body: { amount: 10, description: 'x' }, token }),
    'API Pix PUT /cob/{txid}': (hh: Harness, token: string) => apiPix(hh, 'PUT', `/cob/${TXID}`, { body: cobBody(), token }),
  } as const;
  /** Changes to the credential after the token was issued, and what each leaves the token. */
  const CHANGES: [string, (hh: Harness) => Promise<ApiResponse>, number][] = [
    ['nothing', async (hh) => hh.control('GET', '/clock'), 0],
    ['permissions lowered to ACCOUNT:READ', (hh) => hh.control('PATCH', `/accounts/${DEFAULT.accountId}/credentials/${DEFAULT.full.id}`, { permissions: ['ACCOUNT:READ'] }), 403],
    ['permissions set to PIX:WRITE', (hh) => hh.control('PATCH', `/accounts/${DEFAULT.accountId}/credentials/${DEFAULT.full.id}`, { permissions: ['PIX:WRITE'] }), 0],
    ['credential deleted', (hh) => hh.control('DELETE', `/accounts/${DEFAULT.accountId}/credentials/${DEFAULT.full.id}`), 401],
  ];
  const rows = Object.keys(FACES).flatMap((face) => Object.keys(TOKENS).flatMap((kind) => CHANGES.map(([change, apply, refused]) => [face, kind, change, apply, refused] as const)));

  test.each(rows)('%s with a %s after %s', async (face, kind, _change, apply, refused) => {
    h = await startHarness();
    const token = await TOKENS[kind as keyof typeof TOKENS](h);
    const changed = await apply(h);
    expect(changed.status, changed.text).toBeLessThan(300);
    const res = await FACES[face as keyof typeof FACES](h, token);
    if (refused === 0) expect(res.status, res.text).toBe(201);
    else {
      expect(res.status, res.text).toBe(refused);
      expect(await payments(), 'a refused create made nothing').toBe(0);
    }
  });

  test('an API Pix token issued before its credential lost FULL_ACCESS no longer registers a webhook', async () => {
    h = await startHarness();
    const token = await pixToken(h);
    await h.control('PATCH', `/accounts/${DEFAULT.accountId}/credentials/${DEFAULT.full.id}`, { permissions: ['ACCOUNT:READ'] });
    const res = await apiPix(h, 'PUT', `/webhook/${KEYS.evp}`, { body: { webhookUrl: 'https://example.com/pix' }, token });
    expect(res.status, res.text).toBe(403);
    expect(res.body.detail).toContain('ACCOUNT:READ');
    const account = await h.control('GET', `/accounts/${DEFAULT.accountId}`);
    expect(account.text).not.toContain('https://example.com/pix');
  });
});

describe('a control route that finds a cob by txid stays in its tenant', () => {
  /** A second tenant with the default world's keys' twin, holding a cob of the same txid as the default account. */
  async function twoTenantsWithOneTxid() {
    h = await startHarness();
    await putCob(h);
    const made = await h.control('POST', '/accounts', { name: 'Second', pixKeys: [{ key: 'segunda@example.com', type: 'email' }] });
    expect(made.status, made.text).toBe(201);
    const second = made.body as { id: string; credentials: { clientId: string; clientSecret: string }[] };
    const token = await pixToken(h, undefined, second.credentials[0]!);
    const cob = await apiPix(h, 'PUT', `/cob/${TXID}`, { body: cobBody({ chave: 'segunda@example.com' }), token });
    expect(cob.status, cob.text).toBe(201);
    return { second: second.id, token };
  }

  test('without an account, a txid two tenants hold is a 409 naming their count, and neither cob is paid', async () => {
    const { token } = await twoTenantsWithOneTxid();
    const res = await h.control('POST', `/api-pix/cob/${TXID}/pay`, {});
    expect(res.status, res.text).toBe(409);
    expect(res.body.details).toMatchObject({ code: 'TXID_AMBIGUOUS', accounts: 2 });
    expect((await apiPix(h, 'GET', `/cob/${TXID}`)).body.status).toBe('ATIVA');
    expect((await apiPix(h, 'GET', `/cob/${TXID}`, { token })).body.status).toBe('ATIVA');
  });

  test.each([
    ['?account=', (id: string) => `/api-pix/cob/${TXID}/pay?account=${id}`],
    ['the account path', (id: string) => `/accounts/${id}/api-pix/cob/${TXID}/pay`],
  ])('with %s, each tenant pays its own cob and the other stays ATIVA', async (_way, path) => {
    const { second, token } = await twoTenantsWithOneTxid();
    const paid = await h.control('POST', path(second), {});
    expect(paid.status, paid.text).toBe(200);
    expect((await apiPix(h, 'GET', `/cob/${TXID}`, { token })).body.status).toBe('CONCLUIDA');
    expect((await apiPix(h, 'GET', `/cob/${TXID}`)).body.status).toBe('ATIVA');
    const first = await h.control('POST', path(DEFAULT.accountId), {});
    expect(first.status, first.text).toBe(200);
    expect((await apiPix(h, 'GET', `/cob/${TXID}`)).body.status).toBe('CONCLUIDA');
  });

  test('a txid the named account does not hold is 404, and an unknown account is 404', async () => {
    await twoTenantsWithOneTxid();
    const other = await h.control('POST', `/accounts/${DEFAULT.accountId}/api-pix/cob/outrotxid0000000000000000000/pay`, {});
    expect(other.status, other.text).toBe(404);
    expect(other.body.details.code).toBe('COB_NOT_FOUND');
    const unknown = await h.control('POST', `/api-pix/cob/${TXID}/pay?account=nope`, {});
    expect(unknown.status, unknown.text).toBe(404);
    expect(unknown.body.details.code).toBe('ACCOUNT_NOT_FOUND');
  });
});
