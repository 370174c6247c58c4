// Projects (service-api.md 2.8, 4.6, 4.7; sandbox.md 2.1, 2.2): create, read, list with paging and sorting; each
// wallet has its own projects.
import { expect, test } from 'vitest';
import { DEFAULT, startHarness, T0, type Harness } from '../helpers/harness';
import { at, expectEnvelope, expectValidation, UUID, expectStatus } from './support';

const FIXTURE_PROJECT = 'Loja Online';

/** Creates projects `names` in order, moving the clock 60 s before each so their createdAt differ. */
async function createInOrder(h: Harness, names: string[], subAccount?: string) {
  const made = [];
  for (const name of names) {
    await expectStatus(h.advance(60), 200);
    const res = await h.v2('POST', '/projects', { body: { name, color: '#336699' }, ...(subAccount ? { subAccount } : {}) });
    expect(res.status, res.text).toBe(201);
    made.push(res.body);
  }
  return made;
}

const names = (body: { items: { name: string }[] }) => body.items.map((p) => p.name);

test('POST /v2/projects creates a project with every field and GET /v2/projects/{id} reads it back', async () => {
  const h = await startHarness();
  const body = { name: 'Loja Física', color: '#1a73E8', description: 'Balcão', logoUrl: 'https://example.com/logo.png' };
  const res = await h.v2('POST', '/projects', { body });
  expect(res.status, res.text).toBe(201);
  expect(res.body, res.text).toEqual({ id: expect.stringMatching(UUID), ...body, createdAt: T0, updatedAt: T0 });

  const read = await h.v2('GET', `/projects/${res.body.id}`);
  expect(read.status, read.text).toBe(200);
  expect(read.body, read.text).toEqual(res.body);
});

test('a project created with only name and color has no description or logoUrl', async () => {
  const h = await startHarness();
  const res = await h.v2('POST', '/projects', { body: { name: 'Mínimo', color: '#000000' } });
  expect(res.status, res.text).toBe(201);
  expect(Object.keys(res.body).sort(), res.text).toEqual(['color', 'createdAt', 'id', 'name', 'updatedAt']);
});

test('POST /v2/projects lists every failing field in details.fields', async () => {
  const h = await startHarness();
  const res = await h.v2('POST', '/projects', { body: { name: '', color: 'blue', description: 42, logoUrl: 'not a url' } });
  expectValidation(res, ['name', 'color', 'description', 'logoUrl']);
});

test.each([
  ['name and color missing', {}, ['name', 'color']],
  ['color missing', { name: 'Sem cor' }, ['color']],
  ['name missing', { color: '#123456' }, ['name']],
  ['name blank', { name: '   ', color: '#123456' }, ['name']],
  ['name over 255 characters', { name: 'x'.repeat(256), color: '#123456' }, ['name']],
])('POST /v2/projects answers 400 when %s', async (_label, body, fields) => {
  const h = await startHarness();
  expectValidation(await h.v2('POST', '/projects', { body }), fields);
});

test('a name of exactly 255 characters is accepted', async () => {
  const h = await startHarness();
  const res = await h.v2('POST', '/projects', { body: { name: 'x'.repeat(255), color: '#123456' } });
  expect(res.status, res.text).toBe(201);
});

test.each(['red', '#12345', '#1234567', '123456', '#GGGGGG', '#12 456', ''])('color %j is refused with 400 naming color', async (color) => {
  const h = await startHarness();
  expectValidation(await h.v2('POST', '/projects', { body: { name: 'Cor', color } }), ['color']);
});

test.each(['not-a-url', 'ftp://example.com/logo.png', 'javascript:alert(1)', '/relative/logo.png', 42])(
  'logoUrl %j is refused with 400 naming logoUrl',
  async (logoUrl) => {
    const h = await startHarness();
    expectValidation(await h.v2('POST', '/projects', { body: { name: 'Logo', color: '#123456', logoUrl } }), ['logoUrl']);
  },
);

test('a taken name answers 409 PROJECT_NAME_TAKEN with resource, field and value', async () => {
  const h = await startHarness();
  const res = await h.v2('POST', '/projects', { body: { name: FIXTURE_PROJECT, color: '#123456' } });
  expectEnvelope(res, 409, 'PROJECT_NAME_TAKEN');
  expect(res.body.details, res.text).toEqual({ code: 'PROJECT_NAME_TAKEN', resource: 'project', field: 'name', value: FIXTURE_PROJECT });
  const list = await h.v2('GET', '/projects');
  expect(list.body.total, list.text).toBe(1);
});

test('GET /v2/projects answers page 1 of 20, newest first, by default', async () => {
  const h = await startHarness();
  await createInOrder(h, ['Primeiro', 'Segundo']);
  const res = await h.v2('GET', '/projects');
  expect(res.status, res.text).toBe(200);
  expect(res.body, res.text).toMatchObject({ total: 3, page: 1, limit: 20, totalPages: 1 });
  expect(names(res.body), res.text).toEqual(['Segundo', 'Primeiro', FIXTURE_PROJECT]);
  expect(res.body.items[0], res.text).toMatchObject({ createdAt: at(120), updatedAt: at(120) });
});

const L = FIXTURE_PROJECT; // the oldest: last in createdAt desc order
test.each([
  [1, 2, ['E', 'D'], 3],
  [2, 2, ['C', 'B'], 3],
  [3, 2, ['A', L], 3],
  [4, 2, [], 3],
  [1, 5, ['E', 'D', 'C', 'B', 'A'], 2],
  [2, 5, [L], 2],
  [2, 3, ['B', 'A', L], 2],
  [1, 6, ['E', 'D', 'C', 'B', 'A', L], 1],
])('GET /v2/projects?page=%i&limit=%i answers %j of %i pages', async (page, limit, expected, totalPages) => {
  const h = await startHarness();
  await createInOrder(h, ['A', 'B', 'C', 'D', 'E']);
  const res = await h.v2('GET', `/projects?page=${page}&limit=${limit}&sortBy=createdAt&sortOrder=desc`);
  expect(res.status, res.text).toBe(200);
  expect(names(res.body), res.text).toEqual(expected);
  expect(res.body, res.text).toMatchObject({ total: 6, page, limit, totalPages });
});

// Created in this order, 60 s apart, after the fixtures' 'Loja Online' (T0): name order differs from creation order.
const CREATED = ['Charlie', 'Alpha', 'Bravo'];
test.each([
  ['createdAt', 'asc', [FIXTURE_PROJECT, 'Charlie', 'Alpha', 'Bravo']],
  ['createdAt', 'desc', ['Bravo', 'Alpha', 'Charlie', FIXTURE_PROJECT]],
  ['updatedAt', 'asc', [FIXTURE_PROJECT, 'Charlie', 'Alpha', 'Bravo']],
  ['updatedAt', 'desc', ['Bravo', 'Alpha', 'Charlie', FIXTURE_PROJECT]],
  ['name', 'asc', ['Alpha', 'Bravo', 'Charlie', FIXTURE_PROJECT]],
  ['name', 'desc', [FIXTURE_PROJECT, 'Charlie', 'Bravo', 'Alpha']],
])('GET /v2/projects?sortBy=%s&sortOrder=%s orders the list', async (sortBy, sortOrder, expected) => {
  const h = await startHarness();
  await createInOrder(h, CREATED);
  const res = await h.v2('GET', `/projects?sortBy=${sortBy}&sortOrder=${sortOrder}`);
  expect(res.status, res.text).toBe(200);
  expect(names(res.body), res.text).toEqual(expected);
});

test('sortOrder defaults to desc for any sortBy', async () => {
  const h = await startHarness();
  await createInOrder(h, CREATED);
  const res = await h.v2('GET', '/projects?sortBy=name');
  expect(names(res.body), res.text).toEqual([FIXTURE_PROJECT, 'Charlie', 'Bravo', 'Alpha']);
});

test.each([
  ['page=0', 'page'],
  ['page=-1', 'page'],
  ['page=abc', 'page'],
  ['page=1.5', 'page'],
  ['limit=0', 'limit'],
  ['limit=101', 'limit'],
  ['limit=ten', 'limit'],
  ['sortBy=bogus', 'sortBy'],
  ['sortBy=id', 'sortBy'],
  ['sortOrder=up', 'sortOrder'],
])('GET /v2/projects?%s answers 400 naming %s', async (query, field) => {
  const h = await startHarness();
  expectValidation(await h.v2('GET', `/projects?${query}`), [field]);
});

test('GET /v2/projects with several bad parameters names each of them', async () => {
  const h = await startHarness();
  expectValidation(await h.v2('GET', '/projects?page=0&limit=101&sortBy=bogus&sortOrder=up'), ['page', 'limit', 'sortBy', 'sortOrder']);
});

test.each([1, 100])('limit=%i is accepted', async (limit) => {
  const h = await startHarness();
  const res = await h.v2('GET', `/projects?limit=${limit}`);
  expect(res.status, res.text).toBe(200);
  expect(res.body, res.text).toMatchObject({ limit, total: 1, totalPages: 1 });
});

test('GET /v2/projects/{id} answers 404 PROJECT_NOT_FOUND with resource and id for an unknown id', async () => {
  const h = await startHarness();
  const id = '33333333-3333-4333-8333-999999999999';
  const res = await h.v2('GET', `/projects/${id}`);
  expectEnvelope(res, 404, 'PROJECT_NOT_FOUND');
  expect(res.body.details, res.text).toEqual({ code: 'PROJECT_NOT_FOUND', resource: 'project', id });
});

test('projects of a sub-account are separate from the main account projects', async () => {
  const h = await startHarness();
  const [sub] = await createInOrder(h, ['Projeto do Centro'], 'loja-centro');

  const subList = await h.v2('GET', '/projects', { subAccount: 'loja-centro' });
  expect(subList.status, subList.text).toBe(200);
  expect(names(subList.body), subList.text).toEqual(['Projeto do Centro']);
  expect(subList.body.total, subList.text).toBe(1);

  const mainList = await h.v2('GET', '/projects');
  expect(names(mainList.body), mainList.text).toEqual([FIXTURE_PROJECT]);

  expectEnvelope(await h.v2('GET', `/projects/${sub.id}`), 404, 'PROJECT_NOT_FOUND', at(60));
  expectEnvelope(await h.v2('GET', `/projects/${DEFAULT.projectId}`, { subAccount: 'loja-centro' }), 404, 'PROJECT_NOT_FOUND', at(60));
  expectEnvelope(await h.v2('GET', `/projects/${sub.id}`, { subAccount: 'loja-norte' }), 404, 'PROJECT_NOT_FOUND', at(60));
  const own = await h.v2('GET', `/projects/${sub.id}`, { subAccount: 'loja-centro' });
  expect(own.status, own.text).toBe(200);
  const norteProjects = await h.v2('GET', '/projects', { subAccount: 'loja-norte' });
  expect(norteProjects.body.total, norteProjects.text).toBe(0);
});

test('a sub-account may reuse a name the main account already has', async () => {
  const h = await startHarness();
  const res = await h.v2('POST', '/projects', { subAccount: 'loja-centro', body: { name: FIXTURE_PROJECT, color: '#123456' } });
  expect(res.status, res.text).toBe(201);
  const again = await h.v2('POST', '/projects', { subAccount: 'loja-centro', body: { name: FIXTURE_PROJECT, color: '#654321' } });
  expectEnvelope(again, 409, 'PROJECT_NAME_TAKEN');
});

test('an empty list has zero pages', async () => {
  const h = await startHarness();
  const res = await h.v2('GET', '/projects', { subAccount: 'loja-norte' });
  expect(res.status, res.text).toBe(200);
  expect(res.body, res.text).toEqual({ items: [], total: 0, page: 1, limit: 20, totalPages: 0 });
});
