// npm run bench:automatico: a year of Pix Automático walked on the clock, in process (the built package, app.request):
// 1,000 monthly recurrences approved, then each month their 1,000 charges made in the window (PUT /cobr) and the clock
// moved past the due date, where each is debited as a payment of the core (12,000 charges due in all). Target: the
// walk, creates included, under 30 s on this machine (issue 38). Writes bench/results/automatico.{json,md}.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createSandbox } from '../dist/index.js';

const RECS = Number(process.argv.find((a) => a.startsWith('--recs='))?.slice(7) ?? 1000);
const sb = await createSandbox({ log: () => {}, clockStart: '2026-01-05T12:00:00Z', freezeClock: true });
const call = async (method, path, body, token) => {
  const headers = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const res = await sb.app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
};
const basic = `Basic ${Buffer.from('mp_test_sandbox_full_access:sandbox-secret-full-access').toString('base64')}`;
const token = async () => {
  const res = await sb.app.request('/api-pix/oauth/token', { method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
  return (await res.json()).access_token;
};
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
    await call('PUT', `/api-pix/v2/cobr/m${year}${mm}r${String(i).padStart(24, '0')}`, { idRec, calendario: { dataDeVencimento: due }, valor: { original: '19.90' } }, pt);
    created++;
  }
  await setClock(`${due}T23:00:00Z`);
}
const walked = performance.now();
const account = Object.values(sb.deps.store.state.accounts)[0];
const concluded = Object.values(account.cobrs).filter((c) => c.status === 'CONCLUIDA').length;
await sb.close();
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
result.met = result.totalMs < result.targetMs && concluded === RECS * 12;
console.log(JSON.stringify(result));
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/automatico.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(
  new URL('./results/automatico.md', import.meta.url),
  `| Pix Automático: ${RECS} monthly recurrences approved and walked over a year (${created} charges made, ${concluded} debited) (bench:automatico, ${result.date.slice(0, 10)}) | ${(result.totalMs / 1000).toFixed(1)} s (approving ${(result.approveMs / 1000).toFixed(1)} s) | < 30 s | ${result.met ? 'met' : 'NOT met'} |\n`,
);
