// POST /solicrec: a confirmation request of a CRIADA recurrence, sent to its payer (ENVIADA, RECEBIDA at once on the
// sandbox clock); the payer's answer comes from the control API, /pay, or a magic debtor.
import type { Deps } from '../../../deps';
import { createSolicRec } from '../../../services/recs';
import { inRequestUnit } from '../../../wire/request-unit';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { body } from '../schemas';
import { SolicRecBody } from '../rec/schemas';
import { solicRecView } from '../rec/views';

export const SOLICREC_WRITE = { invalid: 'SolicRecOperacaoInvalida', prefix: 'solicrec' } as const;

export function register(app: ApiPixRouter, deps: Deps) {
  app.post('/v2/solicrec', scoped(deps, 'solicrec.write'), async (c) => {
    c.set('family', SOLICREC_WRITE);
    const b = await body(c, SolicRecBody, SOLICREC_WRITE);
    const { account } = c.get('caller');
    const destinatario = { ...b.destinatario } as Parameters<typeof createSolicRec>[2]['destinatario'];
    const solic = inRequestUnit(c, () => createSolicRec(deps, account, { idRec: b.idRec, dataExpiracaoSolicitacao: b.calendario.dataExpiracaoSolicitacao, destinatario }));
    return c.json(solicRecView(deps, account, solic), 201);
  });
}
