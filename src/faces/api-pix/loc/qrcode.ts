// GET /loc/{id}/qrcode: the QR Code of the charge a location serves, as PSPs' own APIs answer it beside the standard
// (Efí's pixGenerateQRCode and others): qrcode, the BR Code's copy-paste text; imagemQrcode, that code as a PNG data
// URL; linkVisualizacao, the sandbox's checkout page of the charge. Not in BACEN's document: the served document marks
// it x-sandbox-extension (scripts/api-pix-openapi.mjs).
import type { Deps } from '../../../deps';
import { qrPngDataUrl } from '../../../pix/qr';
import { locationPath } from '../../../services/charges';
import { findCob, getLoc } from '../../../services/cobs';
import type { ApiPixRouter } from '../env';
import { scoped } from '../guard';
import { Problem } from '../problems';
import { copyPaste } from '../views';
import { locId } from './id';

export function register(app: ApiPixRouter, deps: Deps) {
  app.get('/v2/loc/:id/qrcode', scoped(deps, 'payloadlocation.read'), (c) => {
    c.set('family', { invalid: 'PayloadLocationConsultaInvalida' });
    const account = c.get('caller').account;
    const loc = getLoc(account, locId(c.req.param('id')));
    const record = loc.txid === undefined ? undefined : findCob(account, loc.tipoCob, loc.txid);
    const qrcode = record && copyPaste(deps, account, record);
    if (!record || !qrcode)
      throw new Problem('PayloadLocationConsultaInvalida', 400, `Location ${loc.numericId} serves no charge, so it has no QR Code; bind one first (PUT /cob/{txid} or /cobv/{txid} with loc.id ${loc.numericId}).`, [
        { razao: 'the location serves no charge', propriedade: 'id', valor: String(loc.numericId) },
      ]);
    return c.json({ qrcode, imagemQrcode: qrPngDataUrl(qrcode), linkVisualizacao: new URL(locationPath(record.tx.id), c.req.url).href }, 200);
  });
}
