// POST /_sandbox/brcodes/decode: a BR Code checked field by field, and the charge of this sandbox it points at. The
// payer page (/pay) calls it, so the rules live once, in src/pix/check.ts; scripts and tests can call it too.
// A code that fails its checks is still a 200: the answer is the report. Only a body without `code` is a 400.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { controlErrors, controlSecurity, json, jsonBody } from '../wire/schemas';
import { iso } from '../wire/views';
import { MAX_BR_CODE_LENGTH } from '../pix';
import { locationPath } from '../services/charges';
import { decodeBrCode } from '../services/checkout';
import type { Router } from '../wire/env';
import { extended } from '../lib/objects';
import type { Account } from '../domain/types';
import type { Rec } from '../domain/api-pix-rec';

const recurrenceView = ({ account, rec }: { account: Account; rec: Rec }, jornada: 'JORNADA_2' | 'JORNADA_3' | 'JORNADA_4', txid: string | null) => ({
  idRec: rec.id,
  accountId: account.id,
  receiver: account.name,
  objeto: rec.vinculo.objeto ?? null,
  contrato: rec.vinculo.contrato,
  debtorName: rec.vinculo.devedor.nome,
  periodicidade: rec.calendario.periodicidade,
  dataInicial: rec.calendario.dataInicial,
  dataFinal: rec.calendario.dataFinal ?? null,
  valorRec: rec.valorRec === undefined ? null : rec.valorRec / 100,
  valorMinimoRecebedor: rec.valorMinimoRecebedor === undefined ? null : rec.valorMinimoRecebedor / 100,
  status: rec.status,
  jornada,
  txid,
  authorisePath: `/_sandbox/api-pix/rec/${rec.id}/authorise`,
  declinePath: `/_sandbox/api-pix/rec/${rec.id}/decline`,
});

const Check = z.object({
  check: z.string(),
  field: z.string().nullable(),
  ok: z.boolean(),
  found: z.string().nullable(),
  expected: z.string().optional(),
  message: z.string(),
});
const Field = z.object({
  id: z.string(),
  name: z.string(),
  value: z.string(),
  subfields: z.array(z.object({ id: z.string(), name: z.string(), value: z.string() })).optional(),
});
const S = z.string().nullable();
const DecodeResult = z
  .object({
    verdict: z
      .enum(['payable', 'not_payable', 'not_ours', 'invalid', 'authorise'])
      .openapi({ description: "payable: valid and points at a pending charge here; not_payable: at a charge (or recurrence) that ended; not_ours: valid, no charge here; invalid: a check failed; authorise: a Pix Automático recurrence's own code, nothing to pay now, the recurrence waiting for the payer's answer" }),
    message: z.string(),
    valid: z.boolean(),
    length: z.number().int(),
    decoded: z.object({
      payloadFormat: S,
      pointOfInitiation: S,
      gui: S,
      key: S,
      location: S,
      recLocation: S.openapi({ description: "Field 80-25: a Pix Automático recurrence's payload location" }),
      description: S,
      categoryCode: S,
      currency: S,
      amount: z.number().nullable().openapi({ description: 'Field 54 in BRL, null when absent or malformed' }),
      country: S,
      merchantName: S,
      merchantCity: S,
      txid: S,
    }),
    crc: z.object({ found: S, expected: z.string(), valid: z.boolean() }),
    checks: z.array(Check),
    fields: z.array(Field),
    chargeId: S.openapi({ description: 'The id in the location path /pix/qr/<id>, whatever host it carries; for a static QR code of this sandbox, its id (each payment is a new transaction)' }),
    charge: z
      .object({
        id: z.string(),
        accountId: z.string(),
        subAccount: S,
        merchantName: z.string(),
        amount: z.number(),
        description: S,
        status: z.enum(['pending', 'paid', 'expired', 'failed', 'cancelled']),
        expiresAt: z.string(),
        checkoutPath: z.string(),
        payPath: z.string(),
      })
      .nullable(),
    recurrence: z
      .object({
        idRec: z.string(),
        accountId: z.string(),
        receiver: z.string(),
        objeto: S,
        contrato: z.string(),
        debtorName: z.string(),
        periodicidade: z.string(),
        dataInicial: z.string(),
        dataFinal: S,
        valorRec: z.number().nullable().openapi({ description: 'The fixed value of each charge in BRL, null when variable' }),
        valorMinimoRecebedor: z.number().nullable(),
        status: z.string(),
        jornada: z.enum(['JORNADA_2', 'JORNADA_3', 'JORNADA_4']).openapi({ description: 'What authorising from this code makes of the recurrence: 2 its own code, 3 with an immediate cob, 4 with a cobv' }),
        txid: S.openapi({ description: "The txid of the code's charge (Jornadas 3 and 4), to send to authorisePath to pay it together" }),
        authorisePath: z.string().openapi({ description: "POST here to authorise (with {txid} to pay the code's charge together)" }),
        declinePath: z.string(),
      })
      .nullable()
      .openapi({ description: 'The Pix Automático recurrence of this sandbox field 80 points at' }),
  })
  .openapi('BrCodeDecodeResult');

export function registerBrCodeControl(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/brcodes/decode',
      operationId: 'decodeBrCode',
      tags: ['Control API'],
      security: controlSecurity,
      summary: 'Check a BR Code field by field (format, CRC, merchant, city, amount, location) and find the charge it points at',
      request: {
        body: jsonBody(
          z.object({
            code: z
              .string({ error: 'must be the BR Code text (the "copia e cola" string starting with 000201)' })
              .max(4 * MAX_BR_CODE_LENGTH, { error: `must be at most ${4 * MAX_BR_CODE_LENGTH} characters; a BR Code holds at most ${MAX_BR_CODE_LENGTH}` }),
          }),
          // The Central Bank's dynamic example: a valid BR Code that this sandbox did not issue.
          { code: '00020101021226720014br.gov.bcb.pix2550bx.com.br/pix/8b3da2f3-9a41-40d1-a91a-bd93113bd4415204000053039865406123.455802BR5913Fulano de Tal6008BRASILIA62190515RP12345678-2019630445C8' },
        ),
      },
      responses: { 200: json(DecodeResult, 'The checks and, when the location names a charge of this sandbox, that charge'), ...controlErrors },
    }),
    (c) => {
      const { report, verdict, message, chargeId, charge, staticQr, recurrence } = decodeBrCode(deps, c.req.valid('json').code);
      const { amountCents, amount: _written, ...decoded } = report.decoded;
      return c.json(
        {
          verdict,
          message,
          valid: report.valid,
          length: report.length,
          decoded: extended(decoded, { amount: amountCents === null ? null : amountCents / 100 }),
          crc: report.crc,
          checks: report.checks,
          fields: report.fields,
          chargeId,
          charge: staticQr
            ? {
                id: staticQr.qr.id,
                accountId: staticQr.account.id,
                subAccount: staticQr.account.subAccounts.find((s) => s.id === staticQr.qr.walletId)?.reference ?? null,
                merchantName: staticQr.merchantName,
                amount: staticQr.qr.amount / 100,
                description: staticQr.qr.description,
                status: staticQr.status,
                expiresAt: iso(staticQr.qr.expiresAt),
                checkoutPath: '/pay',
                payPath: `/_sandbox/transactions/${staticQr.qr.id}/pay`,
              }
            : charge
            ? {
                id: charge.tx.id,
                accountId: charge.account.id,
                subAccount: charge.subAccount?.reference ?? null,
                merchantName: charge.merchantName,
                amount: charge.tx.amount / 100,
                description: charge.tx.description ?? null,
                status: charge.status,
                expiresAt: iso(charge.tx.charge!.expiresAt),
                checkoutPath: locationPath(charge.tx.id),
                payPath: `/_sandbox/transactions/${charge.tx.id}/pay`,
              }
            : null,
          recurrence: recurrence ? recurrenceView(recurrence, report.decoded.location === null ? 'JORNADA_2' : charge?.tx.charge?.due ? 'JORNADA_4' : 'JORNADA_3', charge?.tx.charge?.apiPix?.txid ?? null) : null,
        },
        200,
      );
    },
  );
}
