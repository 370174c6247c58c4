// npm run bench:automatico: a year of Pix Automático walked on the clock, in process (the built package, app.request):
// 1,000 monthly recurrences approved, then each month their 1,000 charges made in the window (PUT /cobr) and the clock
// moved past the due date, where each is debited as a payment of the core (12,000 charges due in all). Target: the
// walk, creates included, under 30 s on this machine (issue 38). Writes bench/results/automatico.{json,md}.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createSandbox } from '../dist/index.js';
import { callerOf } from './in-process.mjs';

const RECS = Number(process.argv.find((a) => a.startsWith('--recs='))?.slice(7) ?? 1000);
const sb = await createSandbox({ log: () => {}, clockStart: '2026-01-05T12:00:00Z', freezeClock: true });
const call = callerOf(sb);
const basic = `Basic ${Buffer.from('mp_test_sandbox_full_access:sandbox-secret-full-access').toString('base64')}`;
const token = async () => {
  const res = await sb.app.request('/api-pix/oauth/token', { method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
  return (await res.json()).access_token;
};
// What PUT /cobr requires beside the charge's own fields: the default world's receiver account, and no business-day move.
const COBR_TERMS = { ajusteDiaUtil: false, recebedor: { conta: '11111111111141118111', agencia: '0001', tipoConta: 'PAGAMENTO' } };
const setClock = (now) => call('PUT', '/_sandbox/clock', { now, frozen: true });

const t0 = performance.now();
let pt = await token();
const recs = [];
for (let i = 0; i < RECS; i++) {
  const rec = await call('POST', '/api-pix/v2/rec', {
    vinculo: { contrato: `C${i}`, devedor: { cpf: '45164632481', nome: 'Assinante' } },
    calendario: { dataInicial: '2026-02-01', periodicidade: 'MENSAL' },
    valor: { valorRec: '19.90' },
    politicaRetentativa: 'NAO_PERMITE',
  }, pt);
  const solic = await call('POST', '/api-pix/v2/solicrec', { idRec: rec.idRec, calendario: { dataExpiracaoSolicitacao: '2026-01-20T00:00:00Z' }, destinatario: { cpf: '45164632481', conta: '1', ispbParticipante: '91193552' } }, pt);
  await call('POST', `/_sandbox/api-pix/solicrec/${solic.idSolicRec}/accept`);
  recs.push(rec.idRec);
}
const approved = performance.now();
let created = 0;
for (let m = 0; m < 12; m++) {
  const year = m + 2 > 12 ? 2027 : 2026;
  const mm = String(((m + 1) % 12) + 1).padStart(2, '0');
  const due = `${year}-${mm}-01`;
  const windowDay = new Date(Date.parse(`${due}T12:00:00Z`) - 5 * 86_400_000).toISOString();
  await setClock(windowDay);
  pt = await token();
  for (const [i, idRec] of recs.entries()) {
    await call('PUT', `/api-pix/v2/cobr/m${year}${mm}r${String(i).padStart(24, '0')}`, { idRec, calendario: { dataDeVencimento: due }, valor: { original: '19.90' }, ...COBR_TERMS }, pt);
    created++;
  }
  await setClock(`${due}T23:00:00Z`);
}
const walked = performance.now();
const account = Object.values(sb.deps.store.state.accounts)[0];
const concluded = Object.values(account.cobrs).filter((c) => c.status === 'CONCLUIDA').length;
await sb.close();
const face = await faceCost();
const result = {
  date: new Date().toISOString(),
  recs: RECS,
  cobrsCreated: created,
  cobrsConcluded: concluded,
  approveMs: Math.round(approved - t0),
  yearMs: Math.round(walked - approved),
  totalMs: Math.round(walked - t0),
  targetMs: 30_000,
};
result.face = face;
result.met = result.totalMs < result.targetMs && concluded === RECS * 12;
console.log(JSON.stringify(result));
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/automatico.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(
  new URL('./results/automatico.md', import.meta.url),
  `| Pix Automático: ${RECS} monthly recurrences approved and walked over a year (${created} charges made, ${concluded} debited) (bench:automatico, ${result.date.slice(0, 10)}) | ${(result.totalMs / 1000).toFixed(1)} s (approving ${(result.approveMs / 1000).toFixed(1)} s) | < 30 s | ${result.met ? 'met' : 'NOT met'} |\n` +
    `| ${faceRow(face)} |\n`,
);

/** The face row of the bench table: rec and cobr creates and reads, each a ratio of time to cob's (<= 1.15 met). */
function faceRow(f) {
  const r = (k) => `${k} ${f.ratios[k]}`;
  return `API Pix face, time per request / cob's, alternating rounds (bench:automatico, ${f.date.slice(0, 10)}) | ${Object.keys(f.ratios).map(r).join('; ')} | <= 1.15 | ${f.met ? 'met' : 'NOT met'}`;
}

/**
 * Creates and reads of rec and cobr against cob's on a fresh sandbox, in process: rounds of N requests of each kind,
 * the kinds' order turned each round so the shared machine's load falls on all alike; the ratio is the median of the
 * rounds' (time per rec or cobr request / time per cob request). Creates: POST /rec, PUT /cobr vs PUT /cob; reads:
 * GET /rec/{idRec}, GET /cobr/{txid} vs GET /cob/{txid}.
 */
async function faceCost(rounds = 30, n = 45) {
  const fb = await createSandbox({ log: () => {}, clockStart: '2026-01-05T12:00:00Z', freezeClock: true });
  const req = callerOf(fb);
  const tokenOf = async () => (await (await fb.app.request('/api-pix/oauth/token', { method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' })).json()).access_token;
  let tok = await tokenOf();
  const recBody = (i) => ({ vinculo: { contrato: `F${i}`, devedor: { cpf: '45164632481', nome: 'Assinante' } }, calendario: { dataInicial: '2026-02-01', periodicidade: 'MENSAL' }, valor: { valorRec: '19.90' }, politicaRetentativa: 'NAO_PERMITE' });
  // The recurrences the cobr creates charge: approved ahead, one per cobr (one charge per cycle).
  const approvedIds = [];
  for (let i = 0; i < rounds * n; i++) {
    const { idRec } = await req('POST', '/api-pix/v2/rec', recBody(`a${i}`), tok);
    const solic = await req('POST', '/api-pix/v2/solicrec', { idRec, calendario: { dataExpiracaoSolicitacao: '2026-01-20T00:00:00Z' }, destinatario: { cpf: '45164632481', conta: '1', ispbParticipante: '91193552' } }, tok);
    await req('POST', `/_sandbox/api-pix/solicrec/${solic.idSolicRec}/accept`);
    approvedIds.push(idRec);
  }
  await req('PUT', '/_sandbox/clock', { now: '2026-01-25T12:00:00Z', frozen: true });
  const cobBody = { calendario: { expiracao: 86400 }, valor: { original: '19.90' }, chave: '11222333000181' };
  const made = { cob: [], rec: [], cobr: [] };
  const creates = {
    cob: async (r, i) => { const txid = `cob${String(r * n + i).padStart(26, '0')}`; await req('PUT', `/api-pix/v2/cob/${txid}`, cobBody, tok); made.cob.push(txid); },
    rec: async (r, i) => made.rec.push((await req('POST', '/api-pix/v2/rec', recBody(`r${r}-${i}`), tok)).idRec),
    cobr: async (r, i) => { const txid = `cobr${String(r * n + i).padStart(26, '0')}`; await req('PUT', `/api-pix/v2/cobr/${txid}`, { idRec: approvedIds[r * n + i], calendario: { dataDeVencimento: '2026-02-02' }, valor: { original: '19.90' }, ...COBR_TERMS }, tok); made.cobr.push(txid); },
  };
  const reads = {
    cob: (r, i) => req('GET', `/api-pix/v2/cob/${made.cob[(r * 7 + i) % made.cob.length]}`, undefined, tok),
    rec: (r, i) => req('GET', `/api-pix/v2/rec/${made.rec[(r * 7 + i) % made.rec.length]}`, undefined, tok),
    cobr: (r, i) => req('GET', `/api-pix/v2/cobr/${made.cobr[(r * 7 + i) % made.cobr.length]}`, undefined, tok),
  };
  const perRound = { create: { cob: [], rec: [], cobr: [] }, read: { cob: [], rec: [], cobr: [] } };
  for (const [phase, ops] of [['create', creates], ['read', reads]]) {
    for (let r = 0; r < rounds; r++) {
      tok = await tokenOf();
      const order = ['cob', 'rec', 'cobr'];
      for (let k = 0; k < r % 3; k++) order.push(order.shift());
      for (const kind of order) {
        const t = performance.now();
        for (let i = 0; i < n; i++) await ops[kind](r, i);
        perRound[phase][kind].push((performance.now() - t) / n);
      }
    }
  }
  await fb.close();
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const ratios = {};
  const usPerRequest = {};
  for (const phase of ['create', 'read'])
    for (const kind of ['cob', 'rec', 'cobr']) {
      usPerRequest[`${phase} ${kind}`] = Math.round(median(perRound[phase][kind]) * 1000);
      if (kind !== 'cob') ratios[`${phase} ${kind}`] = +median(perRound[phase][kind].map((ms, r) => ms / perRound[phase].cob[r])).toFixed(2);
    }
  const face = { date: new Date().toISOString(), rounds, perRound: n, usPerRequest, ratios, target: 1.15 };
  face.met = Object.values(ratios).every((x) => x <= 1.15);
  console.log(JSON.stringify(face));
  return face;
}
