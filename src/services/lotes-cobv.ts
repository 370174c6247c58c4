// Batches of cobv (the standard's lotecobv). A batch names its charges by txid when it is created, for good; each PUT
// or PATCH of it leaves the requests it carries EM_PROCESSAMENTO, and a job on the tenant's clock then takes them one by
// one through the very verbs of PUT and PATCH /cobv/{txid} (createCob, reviseCob): CRIADA, or NEGADA with the verb's
// refusal, kept for the face to show as a Problema. Those verbs check everything before their first write, so a
// refused charge leaves nothing behind and the others go on. A refused batch request (a txid twice, one already a
// charge or in another batch, another set of txids than the batch's) is a 400 that changes nothing.
import type { Deps } from '../deps';
import { SandboxError, validationError, type FieldError } from '../domain/errors';
import type { Account, LoteCobV, LoteCobVItem } from '../domain/types';
import { nowOf } from './clocks';
import { createCob, findCob, reviseCob, type CobInput, type CobPatch } from './cobs';

export const LOTE_JOB = 'lotecobv';
/** Seconds of the tenant's clock between a batch request and its processing, so that EM_PROCESSAMENTO can be seen. */
export const LOTE_DELAY_SECONDS = 1;

/** One charge's request in a batch request. */
export interface LoteRequest<T> {
  txid: string;
  input: T;
}

export function findLote(account: Account, id: string): LoteCobV | undefined {
  return Object.hasOwn(account.lotesCobV ?? {}, id) ? account.lotesCobV[id] : undefined;
}

export function getLote(account: Account, id: string): LoteCobV {
  const lote = findLote(account, id);
  if (!lote) throw new SandboxError('NOT_FOUND', `No batch ${id} in this account; create it with PUT /api-pix/v2/lotecobv/${id}, or list them with GET /api-pix/v2/lotecobv.`, { resource: 'lotecobv', id });
  return lote;
}

/** A txid named twice in one request. */
function repeats(items: LoteRequest<unknown>[], problems: FieldError[]) {
  const seen = new Map<string, number>();
  items.forEach(({ txid }, i) => {
    const first = seen.get(txid);
    if (first === undefined) seen.set(txid, i);
    else problems.push({ field: `cobsv[${i}].txid`, message: `'${txid}' is already cobsv[${first}].txid; a batch names each charge once` });
  });
}

/** Leaves `entry` waiting for the job with this request. */
function ask(entry: LoteCobVItem, whole: boolean, input: CobInput | CobPatch) {
  entry.status = 'EM_PROCESSAMENTO';
  entry.pending = { whole, input: input as unknown as Record<string, unknown> };
  delete entry.refusal;
}

function schedule(deps: Deps, account: Account, lote: LoteCobV) {
  deps.scheduler.schedule({ kind: LOTE_JOB, dueAt: nowOf(deps, account) + LOTE_DELAY_SECONDS * 1000, accountId: account.id, ref: lote.id });
}

/**
 * PUT /lotecobv/{id}: a new batch of new charges, or the same charges of an existing batch requested whole again
 * (each revised, or created if the batch has not created it yet).
 */
export function putLote(deps: Deps, account: Account, id: number, descricao: string, items: LoteRequest<CobInput>[]): LoteCobV {
  const problems: FieldError[] = [];
  repeats(items, problems);
  const existing = findLote(account, String(id));
  if (existing) {
    const before = new Set(existing.cobsv.map((e) => e.txid));
    const asked = new Set(items.map((i) => i.txid));
    const added = [...asked].filter((t) => !before.has(t));
    const left = [...before].filter((t) => !asked.has(t));
    if (added.length || left.length)
      problems.push({
        field: 'cobsv',
        message: `must name exactly the charges batch ${id} was created with (${[...before].join(', ')})${added.length ? `; not in it: ${added.join(', ')}` : ''}${left.length ? `; missing: ${left.join(', ')}` : ''}. A batch's charges are fixed: revise some of them with PATCH, or make another batch`,
      });
  } else {
    const inBatches = new Map<string, string>();
    for (const lote of Object.values(account.lotesCobV ?? {})) for (const e of lote.cobsv) inBatches.set(e.txid, lote.id);
    items.forEach(({ txid }, i) => {
      const cob = Object.hasOwn(account.cobs ?? {}, txid) ? account.cobs[txid] : undefined;
      if (cob) problems.push({ field: `cobsv[${i}].txid`, message: `'${txid}' is already a ${cob.kind} of this account; a batch creates new charges only (revise that one with PATCH /api-pix/v2/${cob.kind}/${txid})` });
      else if (inBatches.has(txid)) problems.push({ field: `cobsv[${i}].txid`, message: `'${txid}' is already in batch ${inBatches.get(txid)}; a charge belongs to one batch (send it again with PUT or PATCH /api-pix/v2/lotecobv/${inBatches.get(txid)})` });
    });
  }
  if (problems.length) throw validationError(problems);

  let lote = existing;
  if (lote) lote.descricao = descricao;
  else {
    account.lotesCobV ??= {};
    lote = { id: String(id), numericId: id, descricao, createdAt: nowOf(deps, account), cobsv: items.map(({ txid }) => ({ txid, status: 'EM_PROCESSAMENTO' as const })) };
    account.lotesCobV[lote.id] = lote;
  }
  const entries = new Map(lote.cobsv.map((e) => [e.txid, e]));
  for (const { txid, input } of items) ask(entries.get(txid)!, true, input);
  schedule(deps, account, lote);
  return lote;
}

/** PATCH /lotecobv/{id}: revisions of some of the batch's charges (and its descricao). */
export function patchLote(deps: Deps, account: Account, id: string, descricao: string | undefined, items: LoteRequest<CobPatch>[]): LoteCobV {
  const lote = getLote(account, id);
  const problems: FieldError[] = [];
  repeats(items, problems);
  const entries = new Map(lote.cobsv.map((e) => [e.txid, e]));
  items.forEach(({ txid }, i) => {
    if (!entries.has(txid)) problems.push({ field: `cobsv[${i}].txid`, message: `'${txid}' is not a charge of batch ${id} (${[...entries.keys()].join(', ')}); a batch's charges are fixed` });
  });
  if (problems.length) throw validationError(problems);

  if (descricao !== undefined) lote.descricao = descricao;
  for (const { txid, input } of items) ask(entries.get(txid)!, false, input);
  if (items.length) schedule(deps, account, lote);
  return lote;
}

/** The job: every request of the batch still waiting, one by one, as PUT or PATCH /cobv/{txid} would take it. */
export function processLote(deps: Deps, account: Account, lote: LoteCobV) {
  for (const entry of lote.cobsv) {
    if (!entry.pending) continue;
    const { whole, input } = entry.pending;
    delete entry.pending;
    try {
      if (entry.criacao !== undefined && findCob(account, 'cobv', entry.txid)) reviseCob(deps, account, 'cobv', entry.txid, input as CobPatch);
      else if (whole) {
        entry.criacao = createCob(deps, account, 'cobv', entry.txid, input as unknown as CobInput).cob.createdAt;
      } else
        throw new SandboxError('COB_NOT_FOUND', `Batch ${lote.id} has not created the cobv ${entry.txid} (its request was NEGADA), so there is nothing to revise; send its whole request with PUT /api-pix/v2/lotecobv/${lote.id}.`, { resource: 'cobv', id: entry.txid });
      entry.status = 'CRIADA';
    } catch (err) {
      if (!(err instanceof SandboxError)) throw err;
      entry.status = 'NEGADA';
      entry.refusal = { code: err.code, message: err.message, details: err.details };
    }
  }
}

export function registerLoteJobs(deps: Deps) {
  deps.scheduler.on(LOTE_JOB, (job) => {
    const account = deps.store.findAccount(job.accountId);
    const lote = account && findLote(account, job.ref);
    if (account && lote) processLote(deps, account, lote);
  });
}
