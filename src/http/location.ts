// GET /pix/qr/{id}: the location a dynamic BR Code points at (field 26-25). A payer's bank fetches it to learn what
// to pay. It answers a JWS (application/jose) signed with the sandbox key (public half at /.well-known/jwks.json), whose
// payload follows the Central Bank's charge ("cob") shape; `Accept: application/json` gets the payload as plain JSON.
import type { Hono } from 'hono';
import type { Deps } from '../deps';
import { SandboxError } from '../domain/errors';
import { locateTransaction } from '../services/transactions';
import type { Env } from './env';

const STATUS = { pending: 'ATIVA', completed: 'CONCLUIDA', cancelled: 'REMOVIDA_PELO_PSP', failed: 'REMOVIDA_PELO_PSP' } as const;

export function registerLocation(app: Hono<Env>, deps: Deps) {
  app.get('/pix/qr/:id', async (c) => {
    const found = locateTransaction(deps.store.state.accounts, c.req.param('id'));
    if (!found?.tx.charge) throw new SandboxError('TRANSACTION_NOT_FOUND', `No PIX charge at this location (${c.req.param('id')}).`, { resource: 'charge', id: c.req.param('id') });
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
    if ((c.req.header('accept') ?? '').includes('application/json')) return c.json(payload);
    return c.body(await deps.tokens.signJws(payload), 200, { 'Content-Type': 'application/jose' });
  });
}
