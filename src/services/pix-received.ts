// Pix received through the standard face (each a paid charge of a cob or cobv), their devoluções (refunds of the
// core: requestRefund, the same balance rules, completion on the sandbox clock) and the webhooks of the account's keys.
import { isAutomaticoWebhook } from '../domain/api-pix-rec';
import type { Deps } from '../deps';
import { SandboxError, validationError } from '../domain/errors';
import { mainWallet } from '../domain/subaccounts';
import type { Account, Transaction, WebhookEndpoint } from '../domain/types';
import type { Cents } from '../domain/money';
import { moneyText } from '../domain/api-pix';
import { requestRefund } from './refunds';
import { buildWebhook } from './accounts';
import { valuesOf, extended } from '../lib/objects';
import { refundLeft, refundsOf } from '../domain/claims';
import { nowOf } from './clocks';

/** A devolução may be asked up to 90 days after the Pix settled (the document's window). */
const DEVOLUCAO_WINDOW_MS = 90 * 86_400_000;

const isPixReceived = (tx: Transaction) => tx.type === 'payment' && tx.status === 'completed' && tx.charge?.apiPix !== undefined && tx.e2eId !== undefined;

/** The account's Pix received through the standard face, oldest first. */
export const pixReceived = (account: Account) => valuesOf(account.transactions).filter(isPixReceived);

export function getPix(account: Account, e2eid: string): Transaction {
  const tx = pixReceived(account).find((t) => t.e2eId === e2eid);
  if (!tx) throw new SandboxError('PIX_NOT_FOUND', `No Pix received with endToEndId '${e2eid}' in this account; list them with GET /api-pix/v2/pix?inicio=...&fim=....`, { resource: 'pix', id: e2eid });
  return tx;
}


export function getDevolucao(account: Account, e2eid: string, id: string): Transaction {
  const payment = getPix(account, e2eid);
  const refund = refundsOf(account, payment.id).find((t) => (t.refund!.devolucaoId ?? t.id.replaceAll('-', '')) === id);
  if (!refund) throw new SandboxError('DEVOLUCAO_NOT_FOUND', `The Pix ${e2eid} has no devolução '${id}'; ask for one with PUT /api-pix/v2/pix/${e2eid}/devolucao/${id}.`, { resource: 'devolucao', id });
  return refund;
}

/**
 * PUT /pix/{e2eid}/devolucao/{id}: a refund of the core under the id given, of its valor: several per Pix, each up to
 * what is left (the Pix's valor minus its devoluções DEVOLVIDO or EM_PROCESSAMENTO); balance, fee and block rules are
 * the service's (requestRefund).
 */
export function requestDevolucao(deps: Deps, account: Account, e2eid: string, id: string, input: { valor: Cents; natureza?: string; descricao?: string }): Transaction {
  const payment = getPix(account, e2eid);
  const refunds = refundsOf(account, payment.id);
  if (refunds.some((t) => t.refund!.devolucaoId === id)) throw validationError([{ field: 'id', message: `'${id}' is already the id of a devolução of this Pix; use another id, or GET it` }]);
  if (input.natureza === 'RETIRADA') throw validationError([{ field: 'devolucao.natureza', message: 'RETIRADA is for Pix Saque and Pix Troco, which this sandbox does not emulate; send ORIGINAL or omit it' }]);
  const left = refundLeft(account, payment);
  if (input.valor > left)
    throw validationError([
      {
        field: 'devolucao.valor',
        message:
          left === payment.amount
            ? `would exceed the Pix's value (${moneyText(payment.amount)})`
            : `would exceed what is left to return of this Pix: ${moneyText(left)} of its ${moneyText(payment.amount)} (the rest is in devoluções DEVOLVIDO or EM_PROCESSAMENTO); send at most ${moneyText(left)}`,
      },
    ]);
  if (nowOf(deps, account) > payment.paidAt! + DEVOLUCAO_WINDOW_MS) throw validationError([{ field: 'devolucao', message: 'the Pix settled more than 90 days ago; a devolução must be asked within 90 days' }]);
  return requestRefund(deps, { account, wallet: mainWallet(account), subAccount: null }, payment.id, { ...(input.descricao === undefined ? {} : { reason: input.descricao }), devolucaoId: id, amount: input.valor });
}

/** The webhook of a key of the account, if any. */
export const pixWebhookOf = (account: Account, chave: string) => (isAutomaticoWebhook(chave) ? undefined : account.webhooks.find((w) => w.chave === chave));
export const pixWebhooks = (account: Account) => account.webhooks.filter((w) => w.chave !== undefined && !isAutomaticoWebhook(w.chave));

function ownKey(account: Account, chave: string) {
  if (!(account.pixKeys ?? []).some((k) => k.key === chave))
    throw validationError([{ field: 'chave', message: `is not a PIX key of this account; use one of ${(account.pixKeys ?? []).map((k) => k.key).join(', ') || '(none)'}` }]);
}

/** PUT /webhook/{chave}: where the Pix of this key are notified (one webhook per key; a second PUT moves it). */
export function putPixWebhook(deps: Deps, account: Account, chave: string, webhookUrl: string): WebhookEndpoint {
  ownKey(account, chave);
  const known = pixWebhookOf(account, chave);
  if (known) {
    known.url = webhookUrl;
    return known;
  }
  const endpoint = extended(buildWebhook(deps, account, { url: webhookUrl }), { chave });
  account.webhooks.push(endpoint);
  return endpoint;
}

export function getPixWebhook(account: Account, chave: string): WebhookEndpoint {
  const endpoint = pixWebhookOf(account, chave);
  if (!endpoint) throw new SandboxError('WEBHOOK_NOT_FOUND', `No webhook for the key '${chave}'; configure one with PUT /api-pix/v2/webhook/${encodeURIComponent(chave)}.`, { resource: 'webhook', id: chave });
  return endpoint;
}

export function deletePixWebhook(account: Account, chave: string): void {
  const endpoint = getPixWebhook(account, chave);
  account.webhooks = account.webhooks.filter((w) => w !== endpoint);
}
