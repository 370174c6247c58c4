// What the customer-facing pages need: a charge found by its location id with who is paid and how it stands, and a
// pasted BR Code checked and matched to the charge it points at. The checkout page and /pay render these; the
// decode route serves the second as JSON. Paying goes through the same control action as curl (services/actions).
import type { Deps } from '../deps';
import type { Account, StaticQr, SubAccount, Transaction } from '../domain/types';
import { checkBrCode, type BrCodeReport } from '../pix';
import { locationPath } from './charges';
import { locateTransaction } from './transactions';
import { amountDue, locateLocByToken } from './cobs';
import { brtDay } from '../domain/api-pix';
import { staticQrStatus } from './static-qr';
import { extended } from '../lib/objects';
import { brlAmount } from '../lib/brl';
import { nowOf } from './clocks';
import { recAtLocation } from './recs';
import type { Rec } from '../domain/api-pix-rec';

/** How a charge stands for the person paying it: an expired charge is `cancelled` inside, but says so. */
export type CustomerStatus = 'pending' | 'paid' | 'expired' | 'failed' | 'cancelled';

export function customerStatus(tx: Transaction): CustomerStatus {
  if (tx.status === 'completed') return 'paid';
  if (tx.status === 'cancelled') return tx.charge?.endReason === 'expired' ? 'expired' : 'cancelled';
  return tx.status === 'failed' ? 'failed' : 'pending';
}

export interface LocatedCharge {
  account: Account;
  tx: Transaction;
  /** The sub-account that created it, null for the main account. */
  subAccount: SubAccount | null;
  /** The name its BR Code carries: the sub-account's name, else the account's. */
  merchantName: string;
  status: CustomerStatus;
}

/** The PIX charge with this id in any account, or undefined (another id, or a transaction that is not a charge). */
export function locateCharge(deps: Deps, id: string): LocatedCharge | undefined {
  const found = locateTransaction(deps.store, id);
  if (!found?.tx.charge) return undefined;
  const { account, tx } = found;
  const subAccount = account.subAccounts.find((s) => s.id === tx.walletId) ?? null;
  return { account, tx, subAccount, merchantName: subAccount?.name ?? account.name, status: customerStatus(tx) };
}

/** `payable`: valid and points at a pending charge here; `not_payable`: at a charge that already ended; `not_ours`:
 * valid but no charge of this sandbox; `invalid`: a check failed. */
/** authorise: a valid Pix Automático code with nothing to pay now, whose recurrence waits for the payer's answer. */
export type DecodeVerdict = 'payable' | 'not_payable' | 'not_ours' | 'invalid' | 'authorise';

export interface DecodedBrCode {
  report: BrCodeReport;
  verdict: DecodeVerdict;
  /** One sentence for the person holding the code. */
  message: string;
  /** The charge id named by the location path (/pix/qr/<id>), whatever host the code carries. */
  chargeId: string | null;
  charge: LocatedCharge | undefined;
  /** A static QR code of this sandbox that the code is (v1 POST /pix/qrcode-static): each payment is a new charge. */
  staticQr?: { account: Account; qr: StaticQr; merchantName: string; status: 'pending' | 'expired' };
  /** The Pix Automático recurrence of this sandbox that field 80 points at (a QR Composto, or a recurrence's own code). */
  recurrence?: { account: Account; rec: Rec };
}

/** The static QR code of this sandbox whose BR Code is exactly `code`. */
function findStaticQr(deps: Deps, code: string): DecodedBrCode['staticQr'] {
  for (const account of Object.values(deps.store.state.accounts)) {
    for (const qr of Object.values(account.staticQrs)) {
      if (qr.pixCopyPaste !== code) continue;
      const sub = account.subAccounts.find((s) => s.id === qr.walletId);
      return { account, qr, merchantName: sub?.name ?? account.name, status: staticQrStatus(qr, nowOf(deps, account)) === 'pending' ? 'pending' : 'expired' };
    }
  }
  return undefined;
}

const LOCATION_ID = /\/pix\/qr\/([^/?#]+)$/;
/** A payload location of the standard face (services/cobs.ts): /api-pix/qr/v2/<token> or /api-pix/qr/v2/cobv/<token>. */
const API_PIX_LOCATION = /\/api-pix\/qr\/v2\/(cobv\/)?([^/?#]+)$/;

/** The charge id a location names: its own path, or the charge bound to a payload location of the standard face. */
function chargeIdAt(deps: Deps, location: string): string | null {
  const own = LOCATION_ID.exec(location);
  if (own) return own[1]!;
  const std = API_PIX_LOCATION.exec(location);
  if (!std) return null;
  const found = locateLocByToken(deps, std[2]!, std[1] ? 'cobv' : 'cob');
  const txid = found?.loc.txid;
  return txid === undefined ? null : (found!.account.cobs[txid]?.transactionId ?? null);
}

/** A code's amount as the pages show amounts; a code without one (a static QR's open amount) says so. */
const amountText = (cents: number | null) => (cents === null ? 'any amount' : brlAmount(cents));

/** Checks a BR Code and finds the charge its location names. The host is not compared: a code made for a LAN
 * address or another --public-host still names the charge by its path. */
export function decodeBrCode(deps: Deps, code: string): DecodedBrCode {
  const decoded = decodeChargeCode(deps, code);
  const recLocation = decoded.report.decoded.recLocation;
  if (recLocation === null || decoded.verdict === 'invalid') return decoded;
  const recurrence = recAtLocation(deps, recLocation);
  const { location } = decoded.report.decoded;
  if (!recurrence) {
    return location === null ? extended(decoded, { verdict: 'not_ours', message: `A valid Pix Automático code, but its recurrence location ${recLocation} is not one of this sandbox's.` }) : decoded;
  }
  const { rec, account } = recurrence;
  const asks = rec.status === 'CRIADA' ? `${account.name} asks you to authorise the recurrence ${rec.id}` : `The recurrence ${rec.id} of ${account.name} is ${rec.status}: nothing to authorise`;
  if (location !== null) return extended(decoded, { recurrence, message: `${decoded.message} ${asks}.` });
  return extended(decoded, { recurrence, verdict: rec.status === 'CRIADA' ? 'authorise' : 'not_payable', message: `${asks}${rec.status === 'CRIADA' ? ': nothing is paid now, its charges are debited on their dates' : ''}.` });
}

function decodeChargeCode(deps: Deps, code: string): DecodedBrCode {
  const report = checkBrCode(code);
  const location = report.decoded.location;
  const chargeId = location ? chargeIdAt(deps, location) : null;
  const charge = chargeId ? locateCharge(deps, chargeId) : undefined;
  const failed = report.checks.filter((c) => !c.ok);
  const base = { report, chargeId, charge };
  if (failed.length > 0) {
    const first = failed[0]!;
    const more = failed.length > 1 ? ` (and ${failed.length - 1} more problem${failed.length > 2 ? 's' : ''} below)` : '';
    return extended(base, { verdict: 'invalid', message: `Not a valid BR Code: ${first.message}${more}` });
  }
  const staticQr = location ? undefined : findStaticQr(deps, code);
  if (staticQr) {
    const { qr, merchantName, status } = staticQr;
    return status === 'pending'
      ? extended(base, { chargeId: qr.id, staticQr, verdict: 'payable', message: `Static QR code ${qr.id} of ${merchantName}, ${amountText(report.decoded.amountCents)}: each payment is a new transaction; it can be paid again until it expires.` })
      : extended(base, { chargeId: qr.id, staticQr, verdict: 'not_payable', message: `Static QR code ${qr.id} of ${merchantName} expired; it takes no more payments.` });
  }
  if (!location) {
    return extended(base, { verdict: 'not_ours', message: `A valid static BR Code for the PIX key ${report.decoded.key}, but not one this sandbox issued: its charges are dynamic codes pointing at ${locationPath('<id>')}.` });
  }
  if (!chargeId) {
    return extended(base, { verdict: 'not_ours', message: `A valid BR Code, but not one this sandbox issued: its location ${location} is not a ${locationPath('<id>')} address of this sandbox.` });
  }
  if (!charge) {
    return extended(base, { verdict: 'not_ours', message: `A valid BR Code pointing at ${locationPath(chargeId)}, but this sandbox has no charge ${chargeId} (made by another sandbox, or before a reset).` });
  }
  // A cobv pending costs what its rules say today (a paid one, what was paid).
  const due = charge.status === 'pending' ? amountDue(charge.tx, brtDay(nowOf(deps, charge.account))) : charge.tx.amount;
  if (report.decoded.amountCents !== due) {
    return extended(base, { verdict: 'invalid', message: `The code says ${amountText(report.decoded.amountCents)} but charge ${chargeId} is for ${brlAmount(due)}; this code was not made from that charge.` });
  }
  if (charge.status !== 'pending') {
    return extended(base, { verdict: 'not_payable', message: `This code points at charge ${chargeId} of ${charge.merchantName}, which is ${charge.status}; only a pending charge can be paid.` });
  }
  return extended(base, { verdict: 'payable', message: `Charge ${chargeId} of ${charge.merchantName}, ${brlAmount(due)}, pending: it can be paid.` });
}
