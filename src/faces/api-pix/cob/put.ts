// PUT /cob/{txid}, PUT /cobv/{txid}: a charge under the txid the client chose (26-35 letters and digits); a txid
// already used is the document's OperacaoInvalida, never a second charge.
import type { Deps } from '../../../deps';
import { createCob, type CobKind } from '../../../services/cobs';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { body, CobBody, CobVBody } from '../schemas';
import { answerCob, checkTxid, cobInput, withDefaults, writeFamily } from './input';
import { inRequestUnit } from '../../../wire/request-unit';

export function register(app: ApiPixRouter, deps: Deps, kind: CobKind) {
  const family = writeFamily(kind);
  app.put(`/v2/${kind}/:txid`, scoped(deps, `${kind}.write`), async (c) => {
    c.set('family', family);
    const txid = c.req.param('txid');
    checkTxid(txid, family);
    const input = cobInput(await body(c, kind === 'cob' ? CobBody : CobVBody, family));
    const { account } = c.get('caller');
    return answerCob(c, deps, account, inRequestUnit(c, () => createCob(deps, account, kind, txid, withDefaults(kind, input))), 201);
  });
}
