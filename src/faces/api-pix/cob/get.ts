// GET /cob/{txid}, GET /cobv/{txid}: the charge as it stands (with its pix once paid). `revisao` may name the
// current revision; earlier revisions are not kept, so any other is the document's ConsultaInvalida.
import type { Deps } from '../../../deps';
import { getCob, type CobKind } from '../../../services/cobs';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { invalid } from '../schemas';
import { answerCob, readFamily } from './input';

export function register(app: ApiPixRouter, deps: Deps, kind: CobKind) {
  const family = readFamily(kind);
  app.get(`/v2/${kind}/:txid`, scoped(deps, `${kind}.read`), (c) => {
    c.set('family', family);
    const { account } = c.get('caller');
    const record = getCob(account, kind, c.req.param('txid'));
    const revisao = c.req.query('revisao');
    if (revisao !== undefined && revisao !== String(record.cob.revisao))
      throw invalid(family, [{ razao: `revisao must be the current revision (${record.cob.revisao}): this sandbox keeps no earlier revisions`, propriedade: 'revisao', valor: revisao }]);
    return answerCob(c, deps, account, record, 200);
  });
}
