// Pix Automático's recurring charges on the sandbox clock (sandbox.md 15): made in their window for an approved
// recurrence, debited on their due date through the core's ledger (CONCLUIDA with its pix), a failed debit retried as
// the policy allows, and every refusal the document names answered CobROperacaoInvalida with nothing kept.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { DEFAULT, expectLedgerBalanced, type Harness } from '../../helpers/harness';
import { apiPix } from '../../helpers/api-pix';
import { approvedRec, cobrBody, createRec, documented, recBody, harnessRecordingPosts, type Posted } from '../../helpers/api-pix-rec';

let h: Harness;
let posted: Posted[];
beforeEach(async () => {
  ({ h, posted } = await harnessRecordingPosts());
});
afterEach(() => h.sb.close());

const DAY = 86_400;
const TXID = 'assinatura2026abril000000001';
const state = () => JSON.stringify(h.sb.deps.store.state.accounts[DEFAULT.accountId]);
const account = () => h.sb.deps.store.state.accounts[DEFAULT.accountId]!;
/** From T0 (2026-03-10 12:00Z) to 2026-03-22 12:00Z: a cobr due 2026-04-01 is in its window (10 to 2 days before). */
const toWindow = () => h.advance(12 * DAY);
/** To 2026-04-01 09:00Z (06:00 in Brasília): the debit of a cobr due that day. */
const toDebit = () => h.advance(9 * DAY + 21 * 3600);

async function putCobR(txid = TXID, body: Record<string, unknown>) {
  const res = await documented(h, '/cobr/{txid}', 'PUT', `/cobr/${txid}`, body);
  expect(res.status, res.text).toBe(201);
  return res;
}

describe('cobr', () => {
  test('PUT answers CRIADA; the payer PSP schedules it (ATIVA, attempt AGND AGENDADA); on its due date it is debited: CONCLUIDA with its pix, money in the wallet', async () => {
    const idRec = await approvedRec(h);
    await toWindow();
    const made = await putCobR(TXID, cobrBody(idRec, '2026-04-01'));
    expect(made.body).toMatchObject({ idRec, txid: TXID, status: 'CRIADA', calendario: { criacao: '2026-03-22', dataDeVencimento: '2026-04-01' }, valor: { original: '35.00' }, politicaRetentativa: 'PERMITE_3R_7D' });
    const active = await documented(h, '/cobr/{txid}', 'GET', `/cobr/${TXID}`);
    expect(active.body.status).toBe('ATIVA');
    expect(active.body.tentativas).toEqual([expect.objectContaining({ dataLiquidacao: '2026-04-01', tipo: 'AGND', status: 'AGENDADA' })]);
    const before = (await h.v2('GET', '/account')).body.balance.available.amount;
    await h.advance(9 * DAY + 21 * 3600 - 1);
    expect((await apiPix(h, 'GET', `/cobr/${TXID}`)).body.status).toBe('ATIVA');
    await h.advance(1);
    const paid = await documented(h, '/cobr/{txid}', 'GET', `/cobr/${TXID}`);
    expect(paid.body.status).toBe('CONCLUIDA');
    expect(paid.body.pix).toEqual([expect.objectContaining({ txid: TXID, valor: '35.00', horario: '2026-04-01T09:00:00.000Z' })]);
    expect(paid.body.tentativas[0]).toMatchObject({ status: 'PAGA', endToEndId: paid.body.pix[0].endToEndId });
    const tx = account().transactions[account().cobrs[TXID]!.transactionId!]!;
    expect(tx).toMatchObject({ status: 'completed', amount: 3500, counterpartName: 'Fulano de Tal', counterpartDocument: '45164632481' });
    const after = (await h.v2('GET', '/account')).body.balance.available.amount;
    expect(after).toBe(before + 3500 - tx.charge!.feeAmount!);
    expectLedgerBalanced(h.sb);
    const list = await documented(h, '/cobr', 'GET', `/cobr?inicio=2026-03-01T00:00:00Z&fim=2026-05-01T00:00:00Z&idRec=${idRec}&status=CONCLUIDA`);
    expect(list.body.cobsr.map((c: { txid: string }) => c.txid)).toEqual([TXID]);
  });

  test('POST /cobr makes the txid; a due date on a Saturday is debited the Monday after (ajusteDiaUtil)', async () => {
    const idRec = await approvedRec(h, recBody({ calendario: { dataInicial: '2026-03-28', periodicidade: 'MENSAL' } }));
    await toWindow();
    const made = await documented(h, '/cobr', 'POST', '/cobr', cobrBody(idRec, '2026-03-28'));
    expect(made.status, made.text).toBe(201);
    expect(made.body.txid).toMatch(/^[a-zA-Z0-9]{32}$/);
    expect((await apiPix(h, 'GET', `/cobr/${made.body.txid}`)).body.tentativas[0].dataLiquidacao).toBe('2026-03-30');
  });

  describe('refusals change nothing', () => {
    const cases: Array<[string, string, (idRec: string) => Record<string, unknown>]> = [
      ['a due date 11 days away (before its window)', 'cobr.calendario.dataDeVencimento', (idRec) => cobrBody(idRec, '2026-04-02')],
      ['a due date 1 day away (after its window)', 'cobr.calendario.dataDeVencimento', (idRec) => cobrBody(idRec, '2026-03-23')],
      ['a due date in the past', 'cobr.calendario.dataDeVencimento', (idRec) => cobrBody(idRec, '2026-03-20')],
      ['a value above the fixed valorRec', 'cobr.valor.original', (idRec) => cobrBody(idRec, '2026-04-01', { valor: { original: '35.01' } })],
      ['a value below the fixed valorRec', 'cobr.valor.original', (idRec) => cobrBody(idRec, '2026-04-01', { valor: { original: '34.99' } })],
      ['a body without recebedor', 'cobr.recebedor', (idRec) => cobrBody(idRec, '2026-04-01', { recebedor: undefined })],
      ['a recebedor without conta', 'cobr.recebedor.conta', (idRec) => cobrBody(idRec, '2026-04-01', { recebedor: { tipoConta: 'PAGAMENTO' } })],
      ['a body without ajusteDiaUtil', 'cobr.ajusteDiaUtil', (idRec) => cobrBody(idRec, '2026-04-01', { ajusteDiaUtil: undefined })],
      ["another receiver's account", 'cobr.recebedor.conta', (idRec) => cobrBody(idRec, '2026-04-01', { recebedor: { conta: '12345678', agencia: '0001', tipoConta: 'PAGAMENTO' } })],
      ["the receiver's account at another branch", 'cobr.recebedor.conta', (idRec) => cobrBody(idRec, '2026-04-01', { recebedor: { conta: '11111111111141118111', agencia: '0002', tipoConta: 'PAGAMENTO' } })],
      ['an unknown recurrence', 'cobr.idRec', () => cobrBody('RR1234567820260310abcdefghijk', '2026-04-01')],
      ['a value without decimals', 'cobr.valor.original', (idRec) => cobrBody(idRec, '2026-04-01', { valor: { original: '35' } })],
    ];
    test.each(cases)('%s is CobROperacaoInvalida naming %s', async (_name, propriedade, body) => {
      const idRec = await approvedRec(h);
      await toWindow();
      const before = state();
      const res = await documented(h, '/cobr/{txid}', 'PUT', `/cobr/${TXID}`, body(idRec));
      expect(res.status, res.text).toBe(400);
      expect(res.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/CobROperacaoInvalida');
      expect(res.body.violacoes.map((v: { propriedade: string }) => v.propriedade)).toContain(propriedade);
      expect(state()).toBe(before);
    });

    test('a recurrence not approved, a txid in use and a second charge in the same cycle are refused', async () => {
      const created = await createRec(h);
      const idRec = await approvedRec(h);
      await toWindow();
      for (const [body, propriedade] of [[cobrBody(created, '2026-04-01'), 'cobr.idRec']] as const) {
        const res = await apiPix(h, 'PUT', `/cobr/${TXID}`, { body });
        expect(res.status, res.text).toBe(400);
        expect(res.body.violacoes[0]).toMatchObject({ propriedade });
        expect(res.body.violacoes[0].razao).toContain('CRIADA');
      }
      await putCobR(TXID, cobrBody(idRec, '2026-04-01'));
      await apiPix(h, 'GET', `/cobr/${TXID}`);
      const before = state();
      const reused = await apiPix(h, 'PUT', `/cobr/${TXID}`, { body: cobrBody(idRec, '2026-04-01') });
      expect(reused.body.violacoes.map((v: { propriedade: string }) => v.propriedade)).toContain('cobr.txid');
      const cycle = await apiPix(h, 'PUT', '/cobr/assinatura2026abril000000002', { body: cobrBody(idRec, '2026-03-31') });
      expect(cycle.status, cycle.text).toBe(400);
      expect(state()).toBe(before);
    });

    test('GET of an unknown cobr is 404 CobRNaoEncontrado', async () => {
      const res = await documented(h, '/cobr/{txid}', 'GET', `/cobr/${TXID}`);
      expect(res.status).toBe(404);
      expect(res.body.type).toContain('CobRNaoEncontrado');
    });
  });

  test('PATCH cancels before the day of its first attempt; on that day it is refused', async () => {
    const idRec = await approvedRec(h);
    await toWindow();
    await putCobR(TXID, cobrBody(idRec, '2026-04-01'));
    const cancelled = await documented(h, '/cobr/{txid}', 'PATCH', `/cobr/${TXID}`, { status: 'CANCELADA' });
    expect(cancelled.body).toMatchObject({ status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR' } } });
    expect(cancelled.body.tentativas[0].status).toBe('CANCELADA');
    await toDebit();
    expect((await apiPix(h, 'GET', `/cobr/${TXID}`)).body.status).toBe('CANCELADA');
    // A new charge of the cycle is allowed once the first was cancelled; on the day of its attempt it cannot be cancelled.
    const other = 'assinatura2026maio0000000001';
    await h.advance(20 * DAY);
    await putCobR(other, cobrBody(idRec, '2026-04-30'));
    await h.advance(9 * DAY);
    const late = await documented(h, '/cobr/{txid}', 'PATCH', `/cobr/${other}`, { status: 'CANCELADA' });
    expect(late.status, late.text).toBe(400);
  });

  test('NAO_PERMITE: a failed debit ends the cobr REJEITADA; a retry is refused', async () => {
    const idRec = await approvedRec(h, recBody({ politicaRetentativa: 'NAO_PERMITE' }));
    await toWindow();
    await putCobR(TXID, cobrBody(idRec, '2026-04-01'));
    await apiPix(h, 'GET', `/cobr/${TXID}`);
    const failed = await h.control('POST', `/api-pix/cobr/${TXID}/fail`);
    expect(failed.status, failed.text).toBe(200);
    const got = await documented(h, '/cobr/{txid}', 'GET', `/cobr/${TXID}`);
    expect(got.body).toMatchObject({ status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AM02' } } });
    expect(got.body.tentativas[0]).toMatchObject({ status: 'REJEITADA', rejeicao: { codigo: 'AM02' } });
    const retry = await documented(h, '/cobr/{txid}/retentativa/{data}', 'POST', `/cobr/${TXID}/retentativa/2026-04-02`);
    expect(retry.status).toBe(400);
    expect(retry.body.type).toContain('CobROperacaoInvalida');
    await toDebit();
    expect(Object.values(account().transactions).filter((t) => t.type === 'payment' && t.status === 'completed')).toHaveLength(0);
  });

  test('PERMITE_3R_7D: a magic debtor without funds fails on the due date; retries within 7 days, one at a time, up to 3; then EXPIRADA', async () => {
    const idRec = await createRec(h, recBody({ vinculo: { contrato: 'c1', devedor: { cpf: '00000000868', nome: 'Sem Saldo' } } }));
    await apiPix(h, 'POST', '/solicrec', { body: { idRec, calendario: { dataExpiracaoSolicitacao: '2026-03-20T12:00:00Z' }, destinatario: { cpf: '00000000868', conta: '1', ispbParticipante: '91193552' } } });
    await toWindow();
    expect((await apiPix(h, 'GET', `/rec/${idRec}`)).body.status).toBe('APROVADA');
    await putCobR(TXID, cobrBody(idRec, '2026-04-01'));
    await toDebit();
    const failed = await apiPix(h, 'GET', `/cobr/${TXID}`);
    expect(failed.body.status).toBe('ATIVA');
    expect(failed.body.tentativas[0].status).toBe('REJEITADA');
    for (const [data, why] of [['2026-04-01', 'must be a future day'], ['2026-04-09', 'past the 7 days']] as const) {
      const res = await documented(h, '/cobr/{txid}/retentativa/{data}', 'POST', `/cobr/${TXID}/retentativa/${data}`);
      expect(res.status, res.text).toBe(400);
      expect(res.body.violacoes[0].razao).toContain(why);
    }
    const retry = await documented(h, '/cobr/{txid}/retentativa/{data}', 'POST', `/cobr/${TXID}/retentativa/2026-04-02`);
    expect(retry.status, retry.text).toBe(201);
    expect(retry.body.tentativas[1]).toMatchObject({ dataLiquidacao: '2026-04-02', tipo: 'NTAG', status: 'AGENDADA' });
    const twice = await apiPix(h, 'POST', `/cobr/${TXID}/retentativa/2026-04-03`);
    expect(twice.body.violacoes[0].razao).toContain('already scheduled');
    for (const data of ['2026-04-03', '2026-04-06']) {
      await h.advance(DAY);
      expect((await apiPix(h, 'POST', `/cobr/${TXID}/retentativa/${data}`)).status).toBe(201);
    }
    await h.advance(5 * DAY);
    const fourth = await apiPix(h, 'POST', `/cobr/${TXID}/retentativa/2026-04-08`);
    expect(fourth.body.violacoes[0].razao).toContain('3 retries');
    await h.advance(3 * DAY);
    const expired = await documented(h, '/cobr/{txid}', 'GET', `/cobr/${TXID}`);
    expect(expired.body.status).toBe('EXPIRADA');
    expect(expired.body.tentativas.map((t: { status: string }) => t.status)).toEqual(['REJEITADA', 'REJEITADA', 'REJEITADA', 'REJEITADA']);
  });
});

// Each move of the three machines, through the route or control action that makes it; refused moves name both states.
describe('transitions', () => {
  type Setup = () => Promise<{ act: () => Promise<{ status: number; body: any }>; read: () => Promise<string> }>;
  const solic = async (answer?: 'accept' | 'reject') => {
    const idRec = await createRec(h);
    const made = await apiPix(h, 'POST', '/solicrec', { body: { idRec, calendario: { dataExpiracaoSolicitacao: '2026-03-20T12:00:00Z' }, destinatario: { cpf: '45164632481', conta: '1', ispbParticipante: '91193552' } } });
    if (answer) await h.control('POST', `/api-pix/solicrec/${made.body.idSolicRec}/${answer}`);
    return { idRec, id: made.body.idSolicRec as string };
  };
  const recStatus = (idRec: string) => async () => (await apiPix(h, 'GET', `/rec/${idRec}`)).body.status as string;
  const rows: Array<[string, string, number, string, Setup]> = [
    ['rec CRIADA', 'accept', 200, 'APROVADA', async () => { const s = await solic(); return { act: () => h.control('POST', `/api-pix/solicrec/${s.id}/accept`), read: recStatus(s.idRec) }; }],
    ['rec CRIADA', 'reject', 200, 'REJEITADA', async () => { const s = await solic(); return { act: () => h.control('POST', `/api-pix/solicrec/${s.id}/reject`), read: recStatus(s.idRec) }; }],
    ['rec CRIADA', 'PATCH CANCELADA', 200, 'CANCELADA', async () => { const idRec = await createRec(h); return { act: () => apiPix(h, 'PATCH', `/rec/${idRec}`, { body: { status: 'CANCELADA' } }), read: recStatus(idRec) }; }],
    ['rec APROVADA', 'payer cancels', 200, 'CANCELADA', async () => { const s = await solic('accept'); return { act: () => h.control('POST', `/api-pix/rec/${s.idRec}/cancel`), read: recStatus(s.idRec) }; }],
    ['rec APROVADA', 'PATCH CANCELADA', 200, 'CANCELADA', async () => { const s = await solic('accept'); return { act: () => apiPix(h, 'PATCH', `/rec/${s.idRec}`, { body: { status: 'CANCELADA' } }), read: recStatus(s.idRec) }; }],
    ['rec REJEITADA', 'payer cancels', 409, 'REJEITADA', async () => { const s = await solic('reject'); return { act: () => h.control('POST', `/api-pix/rec/${s.idRec}/cancel`), read: recStatus(s.idRec) }; }],
    ['rec CANCELADA', 'PATCH CANCELADA', 400, 'CANCELADA', async () => { const s = await solic('accept'); await h.control('POST', `/api-pix/rec/${s.idRec}/cancel`); return { act: () => apiPix(h, 'PATCH', `/rec/${s.idRec}`, { body: { status: 'CANCELADA' } }), read: recStatus(s.idRec) }; }],
    ['solicrec RECEBIDA', 'PATCH CANCELADA', 201, 'CANCELADA', async () => { const s = await solic(); return { act: () => apiPix(h, 'PATCH', `/solicrec/${s.id}`, { body: { status: 'CANCELADA' } }), read: async () => (await apiPix(h, 'GET', `/solicrec/${s.id}`)).body.status }; }],
    ['solicrec ACEITA', 'reject', 409, 'ACEITA', async () => { const s = await solic('accept'); return { act: () => h.control('POST', `/api-pix/solicrec/${s.id}/reject`), read: async () => (await apiPix(h, 'GET', `/solicrec/${s.id}`)).body.status }; }],
    ['solicrec CANCELADA', 'accept', 409, 'CANCELADA', async () => { const s = await solic(); await apiPix(h, 'PATCH', `/solicrec/${s.id}`, { body: { status: 'CANCELADA' } }); return { act: () => h.control('POST', `/api-pix/solicrec/${s.id}/accept`), read: async () => (await apiPix(h, 'GET', `/solicrec/${s.id}`)).body.status }; }],
    ['cobr ATIVA', 'fail (PERMITE_3R_7D)', 200, 'ATIVA', async () => { const s = await solic('accept'); await toWindow(); await apiPix(h, 'PUT', `/cobr/${TXID}`, { body: cobrBody(s.idRec, '2026-04-01') }); await apiPix(h, 'GET', `/cobr/${TXID}`); return { act: () => h.control('POST', `/api-pix/cobr/${TXID}/fail`), read: async () => (await apiPix(h, 'GET', `/cobr/${TXID}`)).body.status }; }],
    ['cobr ATIVA', 'payer cancels its recurrence', 200, 'CANCELADA', async () => { const s = await solic('accept'); await toWindow(); await apiPix(h, 'PUT', `/cobr/${TXID}`, { body: cobrBody(s.idRec, '2026-04-01') }); return { act: () => h.control('POST', `/api-pix/rec/${s.idRec}/cancel`), read: async () => (await apiPix(h, 'GET', `/cobr/${TXID}`)).body.status }; }],
    ['cobr CONCLUIDA', 'PATCH CANCELADA', 400, 'CONCLUIDA', async () => { const s = await solic('accept'); await toWindow(); await apiPix(h, 'PUT', `/cobr/${TXID}`, { body: cobrBody(s.idRec, '2026-04-01') }); await toDebit(); return { act: () => apiPix(h, 'PATCH', `/cobr/${TXID}`, { body: { status: 'CANCELADA' } }), read: async () => (await apiPix(h, 'GET', `/cobr/${TXID}`)).body.status }; }],
    ['cobr CONCLUIDA', 'fail', 409, 'CONCLUIDA', async () => { const s = await solic('accept'); await toWindow(); await apiPix(h, 'PUT', `/cobr/${TXID}`, { body: cobrBody(s.idRec, '2026-04-01') }); await toDebit(); return { act: () => h.control('POST', `/api-pix/cobr/${TXID}/fail`), read: async () => (await apiPix(h, 'GET', `/cobr/${TXID}`)).body.status }; }],
  ];
  test.each(rows)('%s, %s: answers %i and leaves it %s', async (_from, _action, status, after, setup) => {
    const { act, read } = await setup();
    const res = await act();
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(await read()).toBe(after);
  });
});
