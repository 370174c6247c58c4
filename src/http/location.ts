// GET /pix/qr/{id}: the location a dynamic BR Code points at (field 26-25). A payer's bank fetches it to learn what
// to pay. It answers a JWS (application/jose) signed with the sandbox key (public half at /.well-known/jwks.json), whose
// payload follows the Central Bank's charge ("cob") shape; `Accept: application/json` gets the payload as plain JSON.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { SandboxError } from '../domain/errors';
import { locateTransaction } from '../services/transactions';
import type { Env } from './env';
import { ErrorSchema, pathParam } from './schemas';

const route = createRoute({
  method: 'get',
  path: '/pix/qr/{id}',
  operationId: 'getBrCodeLocation',
  tags: ['BR Code location'],
  summary: 'The location a dynamic BR Code points at: the charge as a JWS (or JSON with Accept: application/json)',
  security: [],
  request: { params: z.object({ id: pathParam('id', 'The charge id (the transaction id)') }) },
  responses: {
    200: {
      description: 'The charge in the Central Bank cob shape, signed (ES256, key at /.well-known/jwks.json)',
      content: { 'application/jose': { schema: z.string() }, 'application/json': { schema: z.record(z.string(), z.unknown()) } },
    },
    404: { description: 'No charge at this location', content: { 'application/json': { schema: ErrorSchema } } },
  },
});

const STATUS = { pending: 'ATIVA', completed: 'CONCLUIDA', cancelled: 'REMOVIDA_PELO_PSP', failed: 'REMOVIDA_PELO_PSP' } as const;

export function registerLocation(app: OpenAPIHono<Env>, deps: Deps) {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid('param');
    const found = locateTransaction(deps.store.state.accounts, id);
    if (!found?.tx.charge) throw new SandboxError('TRANSACTION_NOT_FOUND', `No PIX charge at this location (${id}).`, { resource: 'charge', id });
    const { tx, account } = found;
    const charge = tx.charge!;
    const payload = {
      calendario: {
        criacao: new Date(tx.createdAt).toISOString(),
        apresentacao: deps.clock.iso(),
        expiracao: Math.round((charge.expiresAt - tx.createdAt) / 1000),
      },
      txid: tx.id.replaceAll('-', ''),
      revisao: 0,
      status: STATUS[tx.status],
      valor: { original: (tx.amount / 100).toFixed(2) },
      chave: account.id,
      ...(tx.description ? { solicitacaoPagador: tx.description.slice(0, 140) } : {}),
    };
    if ((c.req.header('accept') ?? '').includes('application/json')) return c.json(payload, 200);
    return c.body(await deps.tokens.signJws(payload), 200, { 'Content-Type': 'application/jose' }) as never;
  });
}
