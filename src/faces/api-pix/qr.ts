// GET /api-pix/qr/v2/{pixUrlAccessToken} and /api-pix/qr/v2/cobv/{pixUrlAccessToken}: what a dynamic BR Code's
// location answers a payer's bank, the charge as a JWS (application/jose) signed with the sandbox key (public half at
// /.well-known/jwks.json), like the core's /pix/qr/{id}. A cobv's value is computed for today, or for the payment
// date the bank sends as DPP (with codMun, the payer's municipality). A charge that ended is still served, with its
// status (the document leaves that to the PSP). The same answers at {api_pix}/qr/[cobv/]{pixUrlAccessToken}, where the
// served document puts them (its erratum payload-paths) so that a client generated for {api_pix} reaches them; like the
// locations, they take no token.
import type { Deps } from '../../deps';
import { brtDay, dayOf, lastPayableDay } from '../../domain/api-pix';
import { findCob, locateLocByToken, type CobKind } from '../../services/cobs';
import type { ApiPixRouter } from './env';
import { Problem } from './problems';
import { payloadView } from './views';
import { nowOf } from '../../services/clocks';
import { keySetUrl } from '../../services/tokens';

function register(app: ApiPixRouter, deps: Deps, kind: CobKind, path: string) {
  app.get(path, async (c) => {
    c.set('family', { invalid: 'CobPayloadOperacaoInvalida' });
    const found = locateLocByToken(deps, c.req.param('token')!, kind);
    const record = found?.loc.txid === undefined ? undefined : findCob(found.account, kind, found.loc.txid);
    if (!found || !record) throw new Problem('CobPayloadNaoEncontrado', 404, 'A cobrança em questão não foi encontrada para a location requisitada (no charge is bound to this location).');
    let payDay = brtDay(nowOf(deps, found.account));
    if (kind === 'cobv') {
      const { DPP, codMun } = c.req.query();
      const violacoes = [];
      if (codMun !== undefined && !/^\d{7}$/.test(codMun)) violacoes.push({ razao: 'codMun must be the 7-digit IBGE code of a municipality', propriedade: 'codMun', valor: codMun });
      if (DPP !== undefined) {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(DPP) || Number.isNaN(dayOf(DPP))) violacoes.push({ razao: 'DPP must be a date YYYY-MM-DD', propriedade: 'DPP', valor: DPP });
        else if (dayOf(DPP) < payDay) violacoes.push({ razao: 'DPP is before today (Brasília)', propriedade: 'DPP', valor: DPP });
        else if (dayOf(DPP) > lastPayableDay(record.tx.charge!.due!)) violacoes.push({ razao: 'DPP is after the last day the charge can be paid', propriedade: 'DPP', valor: DPP });
        else payDay = dayOf(DPP);
      }
      if (violacoes.length) throw new Problem('CobPayloadOperacaoInvalida', 400, 'A cobrança existe, mas a requisição é inválida.', violacoes);
    }
    const payload = payloadView(deps, found.account, record, payDay);
    return c.body(await deps.tokens.signJws(payload, { jku: keySetUrl(c.req.url) }), 200, { 'Content-Type': 'application/jose' });
  });
}

export function registerPayloadLocations(app: ApiPixRouter, deps: Deps) {
  for (const base of ['/qr/v2', '/v2/qr']) {
    register(app, deps, 'cobv', `${base}/cobv/:token`);
    register(app, deps, 'cob', `${base}/:token`);
  }
}
