// /openapi.json as a contract (sandbox.md 7): stable operationIds, declared tags, the security each route really has,
// every status the server can give with its schema and headers, and an error vocabulary derived from the domain's.
import { beforeAll, describe, expect, test } from 'vitest';
import { ERROR_CODES } from '../../src/domain/errors';
import { VERSION } from '../../src/app';
import { startHarness } from '../helpers/harness';
import { openApiDocument, operationsOf, resolve, type Json, type Operation } from './document';
import { EVENT_KINDS } from '../../src/domain/events';

let doc: Json;
let ops: Operation[];
beforeAll(async () => {
  doc = await openApiDocument();
  ops = operationsOf(doc);
});
const name = (o: Operation) => `${o.method.toUpperCase()} ${o.path}`;

describe('operations', () => {
  test('every operation has a unique camelCase operationId', () => {
    const bad = ops.filter((o) => !/^[a-z][a-zA-Z0-9]+$/.test(o.op.operationId ?? '')).map(name);
    expect(bad, `no or bad operationId: ${bad.join(', ')}`).toEqual([]);
    const webhookIds = Object.values(doc.webhooks as Record<string, Json>).map((w) => w.post.operationId as string);
    const ids = [...ops.map((o) => o.op.operationId as string), ...webhookIds];
    expect(ids.filter((id, i) => ids.indexOf(id) !== i), 'duplicated operationIds').toEqual([]);
  });

  test.each([
    ['post', '/v2/auth', 'authenticate'],
    ['post', '/v2/pix', 'createPixCharge'],
    ['get', '/v2/transactions/{id}', 'getTransaction'],
    ['post', '/v2/transactions/{id}/refund', 'refundTransaction'],
    ['post', '/v2/withdrawals', 'createWithdrawal'],
    ['get', '/v2/account', 'getAccount'],
    ['get', '/v2/balance-blocks', 'listBalanceBlocks'],
    ['post', '/v2/projects', 'createProject'],
    ['get', '/v2/projects', 'listProjects'],
    ['get', '/v2/projects/{id}', 'getProject'],
    ['get', '/v2/sub-accounts', 'listSubAccounts'],
    ['post', '/v2/sub-accounts', 'createSubAccount'],
    ['get', '/v1/customers', 'listCustomers'],
    ['get', '/v1/metrics', 'getMetrics'],
    ['post', '/_sandbox/transactions/{id}/pay', 'payTransaction'],
    ['post', '/_sandbox/transactions/{id}/expire', 'expireTransaction'],
    ['post', '/_sandbox/transactions/{id}/block', 'blockTransaction'],
    ['post', '/_sandbox/balance-blocks/{id}/approve', 'approveBalanceBlock'],
    ['post', '/_sandbox/accounts', 'createAccount'],
    ['post', '/_sandbox/clock/advance', 'advanceClock'],
  ])('%s %s is %s', (method, path, operationId) => {
    expect(doc.paths[path]?.[method]?.operationId, JSON.stringify(Object.keys(doc.paths))).toBe(operationId);
  });

  test('every operation has a summary and tags declared at the top level with a description', () => {
    const declared = new Map((doc.tags as Json[]).map((t) => [t.name as string, t.description as string]));
    expect([...declared.values()].every((d) => typeof d === 'string' && d.length > 10), JSON.stringify(doc.tags)).toBe(true);
    const bad = ops.filter((o) => !o.op.summary || !(o.op.tags?.length > 0) || !o.op.tags.every((t: string) => declared.has(t))).map((o) => `${name(o)} ${JSON.stringify(o.op.tags)}`);
    expect(bad, bad.join('\n')).toEqual([]);
  });

  test('security: none on auth and public pages, sandboxToken on /_sandbox, bearer on v2, the API key on v1', () => {
    const effective = (o: Operation) => JSON.stringify(o.op.security ?? doc.security);
    const expected = (o: Operation) =>
      o.path === '/v2/auth' || o.path.startsWith('/pix/qr/')
        ? '[]'
        : o.path.startsWith('/_sandbox/')
          ? '[{"sandboxToken":[]}]'
          : o.path.startsWith('/v1/')
            ? '[{"apiKeyAuth":[]}]'
            : '[{"bearerAuth":[]}]';
    const wrong = ops.filter((o) => effective(o) !== expected(o)).map((o) => `${name(o)}: ${effective(o)}, expected ${expected(o)}`);
    expect(wrong, wrong.join('\n')).toEqual([]);
    expect(doc.components.securitySchemes).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer' },
      sandboxToken: { type: 'apiKey', in: 'header', name: 'X-Sandbox-Token' },
      apiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    });
  });

  test('info.version is the service document\'s 1.0; the sandbox\'s own version is x-sandbox-version', () => {
    expect(doc.info.version).toBe('1.0');
    expect(doc.info['x-sandbox-version']).toBe(VERSION);
    expect(doc.openapi).toMatch(/^3\.1\./);
  });
});

describe('answers', () => {
  const statuses = (path: string, method: string) => Object.keys(doc.paths[path][method].responses);

  test.each([
    ['post', '/v2/pix', ['201', '400', '401', '403', '404', '413', '415', '422', '429', '500', '503']],
    ['post', '/v2/withdrawals', ['201', '400', '401', '403', '404', '413', '415', '422', '429', '500', '503']],
    ['post', '/v2/projects', ['201', '400', '401', '403', '404', '409', '413', '415', '429', '500', '503']],
    ['get', '/v2/transactions/{id}', ['200', '400', '401', '403', '404', '429', '500', '503']],
    ['post', '/v2/auth', ['200', '400', '401', '413', '415', '429', '500', '503']],
    ['get', '/v1/metrics', ['200', '400', '401', '403', '429', '500', '503']],
    ['post', '/_sandbox/transactions/{id}/pay', ['200', '400', '401', '404', '409', '413', '415', '500']],
    ['get', '/_sandbox/clock', ['200', '401', '500']],
  ])('%s %s declares %j', (method, path, expected) => {
    expect(statuses(path, method)).toEqual(expected);
  });

  test('every error answer has a schema: the small AuthError on /v2/auth, the Error envelope elsewhere', () => {
    const wrong = ops.flatMap((o) =>
      Object.entries(o.op.responses as Record<string, Json>)
        .filter(([status]) => Number(status) >= 400)
        .filter(([, r]) => r.content?.['application/json']?.schema?.$ref !== `#/components/schemas/${o.path === '/v2/auth' ? 'AuthError' : 'Error'}`)
        .map(([status]) => `${name(o)} ${status}`),
    );
    expect(wrong, wrong.join(', ')).toEqual([]);
  });

  test('every answer declares X-Trace-Id; 429 and 503 declare Retry-After', () => {
    const wrong = ops.flatMap((o) =>
      Object.entries(o.op.responses as Record<string, Json>)
        .filter(([status, r]) => !r.headers?.['X-Trace-Id'] || ((status === '429' || status === '503') && !r.headers['Retry-After']))
        .map(([status]) => `${name(o)} ${status}`),
    );
    expect(wrong, wrong.join(', ')).toEqual([]);
  });

  test.each([
    ['post', '/v2/pix', true],
    ['post', '/v2/withdrawals', true],
    ['post', '/v2/projects', false],
    ['post', '/v2/transactions/{id}/refund', false],
    ['post', '/_sandbox/accounts', false],
    ['post', '/_sandbox/deliveries/{deliveryId}/replay', false],
  ])('%s %s declares Location on 201 (Idempotent-Replayed: %s)', (method, path, idempotent) => {
    const headers = doc.paths[path][method].responses['201'].headers;
    expect(headers.Location, JSON.stringify(headers)).toBeDefined();
    expect(Boolean(headers['Idempotent-Replayed']), JSON.stringify(headers)).toBe(idempotent);
  });

  test('Error.details.code lists exactly the codes of the domain error union plus INJECTED_FAULT', () => {
    const details = resolve(doc, resolve(doc, doc.components.schemas.Error).properties.details);
    expect(details.properties.code.enum).toEqual([...ERROR_CODES]);
    expect(details.properties.code.enum).toContain('INJECTED_FAULT');
    expect(Object.keys(details.properties)).toEqual(expect.arrayContaining(['code', 'fields', 'resource', 'id', 'field', 'value']));
  });

  test('no schema is an untyped object: every object has properties, additionalProperties or a composition', () => {
    const loose: string[] = [];
    const walk = (s: unknown, at: string) => {
      if (!s || typeof s !== 'object') return;
      const o = s as Json;
      if (o.type === 'object' && !o.properties && o.additionalProperties === undefined && !o.oneOf && !o.anyOf && !o.allOf) loose.push(at);
      for (const [k, v] of Object.entries(o)) walk(v, `${at}/${k}`);
    };
    walk(doc.paths, 'paths');
    walk(doc.components.schemas, 'components');
    walk(doc.webhooks, 'webhooks');
    expect(loose, loose.join('\n')).toEqual([]);
  });

  test('a split item is typed: subAccount with the reference pattern, amount a number of at least 0.01, both required', () => {
    const input = resolve(doc, doc.paths['/v2/pix'].post.requestBody.content['application/json'].schema);
    const item = resolve(doc, input.properties.split.items);
    expect(item.required).toEqual(['subAccount', 'amount']);
    expect(item.properties.subAccount).toMatchObject({ type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{1,31}$' });
    expect(item.properties.amount).toMatchObject({ type: 'number', minimum: 0.01 });
  });

  test('the withdrawal input says exactly one of amount and netAmount', () => {
    const input = resolve(doc, doc.paths['/v2/withdrawals'].post.requestBody.content['application/json'].schema);
    expect(input.oneOf).toEqual([
      { type: 'object', required: ['amount'], properties: { amount: { type: 'number' }, netAmount: false } },
      { type: 'object', required: ['netAmount'], properties: { netAmount: { type: 'number' }, amount: false } },
    ]);
  });

  test('ids and times carry their formats', () => {
    const tx = resolve(doc, doc.components.schemas.Transaction);
    expect(tx.properties.id.format).toBe('uuid');
    expect(tx.properties.createdAt.format).toBe('date-time');
    expect(resolve(doc, doc.components.schemas.PixCharge).properties.expiresAt.format).toBe('date-time');
  });
});

describe('webhooks', () => {
  test('the 9 events are under webhooks, each with its envelope and the delivery headers', () => {
    expect(Object.keys(doc.webhooks)).toEqual([...EVENT_KINDS]);
    for (const kind of EVENT_KINDS) {
      const op = doc.webhooks[kind].post;
      const envelope = resolve(doc, op.requestBody.content['application/json'].schema);
      expect(envelope.properties.event, kind).toEqual({ type: 'string', enum: [kind] });
      expect(envelope.required, kind).toEqual(['event', 'eventId', 'timestamp', 'subAccount', 'data']);
      const headers = (op.parameters as Json[]).filter((p) => p.in === 'header').map((p) => p.name);
      expect(headers, kind).toEqual(['User-Agent', 'X-Service-Event', 'X-Service-Webhook-ID', 'X-Service-Signature', 'X-Service-Timestamp']);
    }
  });
});

describe('the fault rule method pattern says what the server accepts', () => {
  test.each([
    ['*', true],
    ['POST', true],
    ['post', true],
    ['Patch', true],
    ['delete', true],
    ['HEAD', false],
    ['POSTS', false],
    ['', false],
  ])('%j: accepted %s', async (method, accepted) => {
    const rule = resolve(doc, doc.components.schemas.FaultRule);
    const pattern = rule.properties.method.pattern as string;
    expect(pattern).not.toMatch(/\/[a-z]*$/); // no leaked regex flags
    expect(new RegExp(pattern).test(method), pattern).toBe(accepted);
    const h = await startHarness();
    const res = await h.control('PUT', '/faults', { rules: [{ method, path: '/v2/pix', status: 503 }] });
    expect(res.status, res.text).toBe(accepted ? 200 : 400);
  });
});
