// GET /api-pix/qr/v2/rec/{recUrlAccessToken} (and {api_pix}/qr/rec/{recUrlAccessToken}): what a recurrence's location answers the payer's bank that read its QR
// code: the recurrence (RecPayload) as a JWS (application/jose) signed with the sandbox key, like a cob's location. A
// recurrence that ended (rejected, expired, cancelled) is refused with RecPayloadOperacaoInvalida, as the document
// allows; a location bound to none is RecPayloadNaoEncontrado.
import type { Deps } from '../../../deps';
import { findRec, locateRecLocByToken } from '../../../services/recs';
import type { ApiPixRouter } from '../env';
import { Problem } from '../problems';
import { recPayloadView } from '../rec/views';
import { keySetUrl } from '../../../services/tokens';

export function register(app: ApiPixRouter, deps: Deps) {
  // Where the location points ({public host}/api-pix/qr/v2/rec/...), and where the served document puts it for a
  // generated client ({api_pix}/qr/rec/..., errata payload-paths).
  for (const path of ['/qr/v2/rec/:token', '/v2/qr/rec/:token']) app.get(path, async (c) => {
    c.set('family', { invalid: 'RecPayloadOperacaoInvalida' });
    const found = locateRecLocByToken(deps, c.req.param('token') ?? '');
    const rec = found?.loc.idRec === undefined ? undefined : findRec(found.account, found.loc.idRec);
    if (!found || !rec) throw new Problem('RecPayloadNaoEncontrado', 404, 'A recorrência em questão não foi encontrada para a location requisitada (no recurrence is bound to this location).');
    if (rec.status === 'REJEITADA' || rec.status === 'EXPIRADA' || rec.status === 'CANCELADA')
      throw new Problem('RecPayloadOperacaoInvalida', 400, `A recorrência encontra-se ${rec.status.toLowerCase()} (the recurrence ${rec.id} is ${rec.status}).`, [{ razao: `recUrlAccessToken references a recurrence that is ${rec.status}`, propriedade: 'recUrlAccessToken' }]);
    return c.body(await deps.tokens.signJws(recPayloadView(deps, found.account, rec), { jku: keySetUrl(c.req.url) }), 200, { 'Content-Type': 'application/jose' });
  });
}
