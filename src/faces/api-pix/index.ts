// The Central Bank's standard API Pix face (sandbox.md 9), mounted at /api-pix: the token at /oauth/token, the
// operations at /v2 ({api_pix}) and the payload locations at /qr/v2. A sibling of v2/ and v1/ over the same services
// (STYLE.md habit 17): it imports no other face. Its errors are the standard's problem+json (problems.ts).
import type { Deps } from '../../deps';
import type { CobKind } from '../../services/cobs';
import { createApiPixRouter } from './env';
import { Problem, sendProblem, toProblem } from './problems';
import * as token from './oauth/token';
import * as cobPut from './cob/put';
import * as cobPost from './cob/post';
import * as cobPatch from './cob/patch';
import * as cobGet from './cob/get';
import * as cobList from './cob/list';
import * as locPost from './loc/post';
import * as locGet from './loc/get';
import * as locList from './loc/list';
import * as locUnbind from './loc/unbind';
import * as locQrcode from './loc/qrcode';
import * as pixGet from './pix/get';
import * as pixList from './pix/list';
import * as devolucaoPut from './pix/devolucao-put';
import * as devolucaoGet from './pix/devolucao-get';
import * as webhookPut from './webhook/put';
import * as webhookGet from './webhook/get';
import * as webhookDelete from './webhook/delete';
import * as webhookList from './webhook/list';
import * as lotePut from './lotecobv/put';
import * as lotePatch from './lotecobv/patch';
import * as loteGet from './lotecobv/get';
import * as loteList from './lotecobv/list';
import { registerPayloadLocations } from './qr';
import * as recPost from './rec/post';
import * as recPatch from './rec/patch';
import * as recGet from './rec/get';
import * as recList from './rec/list';
import * as locrecPost from './locrec/post';
import * as locrecGet from './locrec/get';
import * as locrecList from './locrec/list';
import * as locrecUnbind from './locrec/unbind';
import * as locrecPayload from './locrec/payload';
import * as solicrecPost from './solicrec/post';
import * as solicrecGet from './solicrec/get';
import * as solicrecPatch from './solicrec/patch';
import * as cobrPut from './cobr/put';
import * as cobrGet from './cobr/get';
import * as cobrPatch from './cobr/patch';
import * as cobrList from './cobr/list';
import * as cobrRetry from './cobr/retry';
import { registerAutomaticoWebhooks } from './webhookrec';
import { faceRoutes, lessonText, routeLesson, type RouteLike } from '../../wire/route-lessons';

export function apiPixRoutes(deps: Deps) {
  const app = createApiPixRouter();
  app.onError((err, c) => sendProblem(c, toProblem(err, c.get('family') ?? { invalid: 'RequisicaoInvalida' }, deps.log)));
  token.register(app, deps);
  for (const kind of ['cob', 'cobv'] as CobKind[]) for (const operation of [cobPut, cobPatch, cobGet, cobList]) operation.register(app, deps, kind);
  for (const operation of [cobPost, locPost, locList, locGet, locQrcode, locUnbind, pixList, pixGet, devolucaoPut, devolucaoGet, webhookPut, webhookList, webhookGet, webhookDelete, lotePut, lotePatch, loteGet, loteList]) operation.register(app, deps);
  // Pix Automático (sandbox.md 15).
  for (const operation of [recPost, recList, recGet, recPatch, locrecPost, locrecList, locrecGet, locrecUnbind, locrecPayload, solicrecPost, solicrecGet, solicrecPatch, cobrPut, cobrList, cobrGet, cobrPatch, cobrRetry]) operation.register(app, deps);
  registerAutomaticoWebhooks(app, deps);
  registerPayloadLocations(app, deps);
  // A miss is taught as on the other faces (wire/route-lessons.ts), in this face's problem+json.
  let routes: RouteLike[] | undefined;
  app.all('*', (c) => {
    routes ??= faceRoutes(app.routes, '').map((r) => ({ method: r.method, path: `/api-pix${r.path}` }));
    const lesson = routeLesson(routes, c.req.method, c.req.path);
    if ('allow' in lesson) {
      c.header('Allow', lesson.allow.join(', '));
      throw new Problem('MetodoNaoPermitido', 405, lessonText(lesson, c.req.method, c.req.path, '/openapi-api-pix.json'));
    }
    const near = lesson.nearest.length ? ` Did you mean ${lesson.nearest.join(' or ')}?` : '';
    throw new Problem('NaoEncontrado', 404, `No operation ${c.req.method} ${c.req.path} on this face.${near} See /openapi-api-pix.json for what it serves.`);
  });
  return app;
}
