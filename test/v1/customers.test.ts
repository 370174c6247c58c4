import { describe, expect, test } from 'vitest';
import { DEFAULT, startHarness, T0, type Harness } from '../helpers/harness';
import { createCharge, paidCharge, v1 } from '../helpers/v1';

const CPF_ANA = '52998224725';
const CPF_JOAO = '12345678909';
const CNPJ_PADARIA = '11222333000181';

const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();

async function customerIdOf(h: Harness, chargeId: string): Promise<string> {
  const res = await h.v2('GET', `/transactions/${chargeId}`);
  expect(res.status, res.text).toBe(200);
  return res.body.customerId;
}

describe('GET /v1/customers', () => {
  test('lists a record with every field, the document masked to its first 3 and last 2 digits', async () => {
    const h = await startHarness();
    const charge = await createCharge(h, 10, { name: 'Ana Souza', document: CPF_ANA, email: 'ana@example.com', phone: '+5511999990000' });
    const res = await v1(h, '/customers');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      items: [{ id: await customerIdOf(h, charge), name: 'Ana Souza', email: 'ana@example.com', documentType: 'cpf', document: '529******25', createdAt: T0, phone: '+5511999990000' }],
      total: 1,
      page: 1,
      limit: 20,
      totalPages: 1,
    });
    expect(res.text).not.toContain(CPF_ANA);
  });

  test.each([
    ['a CPF', CPF_ANA, '529******25'],
    ['another CPF', CPF_JOAO, '123******09'],
    ['a CNPJ', CNPJ_PADARIA, '112*********81'],
  ])('masks %s %s as %s', async (_kind, document, masked) => {
    const h = await startHarness();
    await createCharge(h, 10, { document });
    const res = await v1(h, '/customers');
    expect(res.body.items[0].document, res.text).toBe(masked);
    expect(res.body.items[0].document).toHaveLength(document.length);
  });

  test('fields no charge gave stay absent', async () => {
    const h = await startHarness();
    await createCharge(h, 10, { email: 'only@example.com' });
    const res = await v1(h, '/customers');
    expect(res.body.items, res.text).toEqual([{ id: expect.any(String), email: 'only@example.com', createdAt: T0 }]);
  });

  test('an account whose charges named nobody has an empty list', async () => {
    const h = await startHarness();
    await paidCharge(h, 10);
    const res = await v1(h, '/customers');
    expect(res.body, res.text).toEqual({ items: [], total: 0, page: 1, limit: 20, totalPages: 0 });
  });

  test('one record per person: same document, else same email; the newest charge details win; charges point at it', async () => {
    const h = await startHarness();
    const first = await createCharge(h, 10, { name: 'Ana', document: CPF_ANA, email: 'ana@old.example' });
    await h.advance(60);
    const second = await paidCharge(h, 20, { name: 'Ana Souza', document: CPF_ANA, email: 'ana@new.example', phone: '11 99999-0000' });
    const byEmail1 = await createCharge(h, 5, { name: 'Bia', email: 'bia@example.com' });
    const byEmail2 = await createCharge(h, 5, { email: 'BIA@example.com', phone: '21 3333-4444' });
    await createCharge(h, 5, { name: 'Caio', document: CPF_JOAO, email: 'ana@new.example' }); // another document: another person

    const res = await v1(h, '/customers');
    expect(res.body.total, res.text).toBe(3);
    const [caio, bia, ana] = res.body.items;
    expect(ana).toEqual({ id: await customerIdOf(h, first), name: 'Ana Souza', email: 'ana@new.example', documentType: 'cpf', document: '529******25', createdAt: T0, phone: '11 99999-0000' });
    expect(await customerIdOf(h, second)).toBe(ana.id);
    expect(bia).toMatchObject({ id: await customerIdOf(h, byEmail1), name: 'Bia', phone: '21 3333-4444' });
    expect(await customerIdOf(h, byEmail2)).toBe(bia.id);
    expect(caio).toMatchObject({ name: 'Caio', document: '123******09', email: 'ana@new.example' });
  });

  test('customers of charges made by sub-accounts are listed too: the key is account-level', async () => {
    const h = await startHarness();
    await createCharge(h, 10, { name: 'Main Payer' });
    await createCharge(h, 10, { name: 'Centro Payer' }, { subAccount: DEFAULT.subAccounts.centro });
    const res = await v1(h, '/customers');
    expect(res.body.items.map((c: any) => c.name), res.text).toEqual(['Centro Payer', 'Main Payer']);
  });

  describe('search', () => {
    async function world() {
      const h = await startHarness();
      await createCharge(h, 10, { name: 'João da Silva', document: CPF_JOAO, email: 'joao.silva@example.com' });
      await createCharge(h, 10, { name: 'Ana Souza', document: CPF_ANA, email: 'ana@loja.com.br' });
      await createCharge(h, 10, { name: 'Padaria Estação', document: CNPJ_PADARIA, email: 'contato@padaria.example' });
      await createCharge(h, 10, { name: 'Zé Ninguém', phone: '11987654321' });
      return h;
    }

    test.each([
      ['a name, without its accents', 'joao', ['João da Silva']],
      ['a name in upper case', 'SOUZA', ['Ana Souza']],
      ['a name with accents given when stored without', 'Ána', ['Ana Souza']],
      ['a name with its accents', 'Estação', ['Padaria Estação']],
      ['words of a name, with extra spaces', '  joão   DA ', ['João da Silva']],
      ['part of an email', 'LOJA.COM', ['Ana Souza']],
      ['a whole email', 'contato@padaria.example', ['Padaria Estação']],
      ['document digits that the mask hides', '982247', ['Ana Souza']],
      ['a whole CPF', CPF_JOAO, ['João da Silva']],
      ['a CPF with punctuation', '529.982.247-25', ['Ana Souza']],
      ['a CNPJ with punctuation', '11.222.333/0001-81', ['Padaria Estação']],
      ['text shared by several', 'a', ['Padaria Estação', 'Ana Souza', 'João da Silva']],
      ['a phone number (not searched)', '987654321', []],
      ['nothing that matches', 'xyz', []],
      ['only spaces (no filter)', '   ', ['Zé Ninguém', 'Padaria Estação', 'Ana Souza', 'João da Silva']],
    ])('finds by %s (%s)', async (_what, search, names) => {
      const h = await world();
      const res = await v1(h, `/customers?search=${encodeURIComponent(search)}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.items.map((c: any) => c.name), res.text).toEqual(names);
      expect(res.body.total).toBe(names.length);
      expect(res.body.totalPages).toBe(names.length === 0 ? 0 : 1);
    });

    test('search and pagination combine: total counts the matches', async () => {
      const h = await world();
      const res = await v1(h, '/customers?search=a&limit=2&page=2');
      expect(res.body, res.text).toEqual({ items: [expect.objectContaining({ name: 'João da Silva' })], total: 3, page: 2, limit: 2, totalPages: 2 });
    });
  });

  describe('pagination', () => {
    async function withCustomers(n: number) {
      const h = await startHarness();
      for (let i = 1; i <= n; i++) {
        await createCharge(h, 10, { name: `Cliente ${String(i).padStart(2, '0')}` });
        if (i % 2 === 0) await h.advance(1); // pairs share a createdAt: ties go newest-created first
      }
      return h;
    }

    test('newest first, 20 per page by default', async () => {
      const h = await withCustomers(25);
      const res = await v1(h, '/customers');
      expect(res.body.items, res.text).toHaveLength(20);
      expect(res.body.items.map((c: any) => c.name).slice(0, 4)).toEqual(['Cliente 25', 'Cliente 24', 'Cliente 23', 'Cliente 22']);
      expect(res.body.items[0].createdAt).toBe(at(12));
      expect(res.body).toMatchObject({ total: 25, page: 1, limit: 20, totalPages: 2 });
    });

    test('pages of 10 cover every customer once, and a page past the end is empty', async () => {
      const h = await withCustomers(25);
      const names: string[] = [];
      for (const page of [1, 2, 3]) {
        const res = await v1(h, `/customers?page=${page}&limit=10`);
        expect(res.body, res.text).toMatchObject({ total: 25, page, limit: 10, totalPages: 3 });
        names.push(...res.body.items.map((c: any) => c.name));
      }
      expect(names).toEqual(Array.from({ length: 25 }, (_, i) => `Cliente ${String(25 - i).padStart(2, '0')}`));
      const past = await v1(h, '/customers?page=4&limit=10');
      expect(past.body, past.text).toEqual({ items: [], total: 25, page: 4, limit: 10, totalPages: 3 });
    });

    test.each([
      ['limit=1', 1],
      ['limit=100', 100],
      ['limit=', 20],
    ])('%s is accepted (limit %s)', async (query, limit) => {
      const h = await withCustomers(3);
      const res = await v1(h, `/customers?${query}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.limit).toBe(limit);
      expect(res.body.items).toHaveLength(Math.min(limit, 3));
    });

    test.each([
      ['page=0', 'page'],
      ['page=-1', 'page'],
      ['page=1.5', 'page'],
      ['page=abc', 'page'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=-5', 'limit'],
      ['limit=ten', 'limit'],
      [`search=${'x'.repeat(256)}`, 'search'],
    ])('%s is 400 VALIDATION_ERROR naming %s', async (query, field) => {
      const h = await startHarness();
      const res = await v1(h, `/customers?${query}`);
      expect(res.status, res.text).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'BadRequest', details: { code: 'VALIDATION_ERROR' } });
      expect(res.body.details.fields.map((f: any) => f.field)).toEqual([field]);
      expect(res.body.message).toContain(field);
    });

    test('page and limit out of range together are both named', async () => {
      const h = await startHarness();
      const res = await v1(h, '/customers?page=0&limit=500');
      expect(res.body.details.fields.map((f: any) => f.field).sort(), res.text).toEqual(['limit', 'page']);
    });
  });
});
