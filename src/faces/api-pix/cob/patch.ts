// PATCH /cob/{txid}, PATCH /cobv/{txid}: revises an ATIVA charge (revisao + 1), or removes it with status
// REMOVIDA_PELO_USUARIO_RECEBEDOR sent alone; a charge no longer ATIVA (CONCLUIDA, removed) is refused.
import type { Deps } from '../../../deps';
import { reviseCob, type CobKind } from '../../../services/cobs';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { body, CobPatchBody, CobVPatchBody } from '../schemas';
import { answerCob, patchInput, writeFamily } from './input';
import { inRequestUnit } from '../../../wire/request-unit';

export function register(app: ApiPixRouter, deps: Deps, kind: CobKind) {
  const family = writeFamily(kind);
  app.patch(`/v2/${kind}/:txid`, scoped(deps, `${kind}.write`), async (c) => {
    c.set('family', family);
    const parsed = await body(c, kind === 'cob' ? CobPatchBody : CobVPatchBody, family);
    const { account } = c.get('caller');
    return answerCob(c, deps, account, inRequestUnit(c, () => reviseCob(deps, account, kind, c.req.param('txid'), patchInput(parsed))), 200);
  });
}
