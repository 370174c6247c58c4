// The v1 dialect's answers (sandbox.md 12: the SDKs' own types): the core's records translated at the edge. Where a
// v1 answer is the v2 one (account, balance blocks, refund result), the v2 view is used as it is.
import { maskDocument } from '../../domain/customers';
import { toBrl } from '../../domain/money';
import type { BalanceBlock, Customer, Project, StaticQr, Transaction } from '../../domain/types';
import { opt, extended } from '../../lib/objects';
import { documentTypeOf } from '../../services/customers';
import { staticQrStatus } from '../../services/static-qr';
import { balanceBlockView, iso, isoOrUndefined, transactionView, withdrawalView } from '../../wire/views';

/** Customer record (2.12 with the SDK's documentType); fields the charges never gave stay absent. */
export const customerView = (c: Customer) => ({
  id: c.id,
  ...opt('name', c.name),
  ...opt('email', c.email),
  ...opt('phone', c.phone),
  ...(c.document !== undefined ? { documentType: documentTypeOf(c.document), document: maskDocument(c.document) } : {}),
  createdAt: iso(c.createdAt),
});

/** Project (the SDK's: no updatedAt). */
export const projectV1View = (p: Project) => ({ id: p.id, name: p.name, ...opt('description', p.description), color: p.color, ...opt('logoUrl', p.logoUrl), createdAt: iso(p.createdAt) });

/** PixCharge of the SDKs: the charge of the core with its customerId. */
export const pixV1View = (tx: Transaction, qrCodeBase64: string) => ({
  id: tx.id,
  status: tx.status,
  amount: toBrl(tx.amount),
  currency: 'BRL' as const,
  pixCopyPaste: tx.charge!.pixCopyPaste,
  qrCodeBase64,
  expiresAt: iso(tx.charge!.expiresAt),
  ...opt('customerId', tx.customerId),
  ...opt('externalReference', tx.externalReference),
  createdAt: iso(tx.createdAt),
});

export const staticQrView = (qr: StaticQr, now: number, qrCodeBase64: string) => ({
  id: qr.id,
  status: staticQrStatus(qr, now),
  amount: toBrl(qr.amount),
  currency: 'BRL' as const,
  pixCopyPaste: qr.pixCopyPaste,
  qrCodeBase64,
  ...opt('externalReference', qr.externalReference),
  expiresAt: iso(qr.expiresAt),
  createdAt: iso(qr.createdAt),
});

/** The SDK's Transaction: the v2 view without the PSP's fields (e2eId, counterpart). */
export function transactionV1View(tx: Transaction) {
  const { e2eId: _e, counterpartName: _n, counterpartDocument: _d, ...v1 } = transactionView(tx);
  return v1;
}

/** The v1 withdrawal: bankAccountId beside the v2 fields the SDK types list (no projectId, no externalReference). */
export function withdrawalV1View(tx: Transaction) {
  const { projectId: _p, externalReference: _x, ...w } = withdrawalView(tx);
  return extended(w, { bankAccountId: tx.withdrawal!.bankAccountId ?? null });
}


/** The 2.x SDK's BalanceBlock: the optional fields of 2.10 are present, null until known. */
export const balanceBlockV1View = (b: BalanceBlock) =>
  extended(balanceBlockView(b), {
    externalReference: b.externalReference ?? null,
    e2eId: b.e2eId ?? null,
    resolutionReason: b.resolutionReason ?? null,
    resolvedAt: isoOrUndefined(b.resolvedAt) ?? null,
  });
