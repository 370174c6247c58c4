// Requests of Pix Automático (rec, solicrec, cobr, locrec, webhookrec, webhookcobr), checked as the document's schemas
// say (RecSolicitada, RecRevisada, SolicRecSolicitada, SolicRecRevisada, CobRSolicitada, CobRRevisada, the list
// parameters), each failure a violacao naming the property (rec.calendario.dataInicial) and what to send instead.
import { z } from 'zod';
import { COBR_STATUSES, PERIODICIDADES, POLITICAS, REC_STATUSES } from '../../../domain/api-pix-rec';
import { TXID } from '../../../domain/api-pix';
import { bool, date, dateTime, Devedor, nat, positiveMoney } from '../schemas';

const text = (max: number) => z.string({ error: `must be text of at most ${max} characters` }).max(max, { error: `must be at most ${max} characters` });
const idRec = z.string({ error: 'is required: the idRec of a recurrence (29 letters and digits, from POST /rec)' }).regex(/^[a-zA-Z0-9]{29}$/, { error: 'must be an idRec: 29 letters and digits' });
const txid = z.string().regex(TXID, { error: 'must be 26 to 35 letters and digits' });
const locId = z.number({ error: 'must be the id of a recurrence payload location (POST /locrec)' }).int({ error: 'must be a whole number' }).positive({ error: 'must be a positive id' });
const DevedorRec = Devedor;

export const RecBody = z.object({
  vinculo: z.object(
    {
      objeto: text(35).optional(),
      contrato: text(35).min(1, { error: 'must not be empty' }),
      devedor: DevedorRec,
    },
    { error: 'is required: {contrato, devedor: {cpf or cnpj, nome}, objeto?}' },
  ),
  calendario: z.object(
    {
      dataInicial: date(),
      dataFinal: date().optional(),
      periodicidade: z.enum(PERIODICIDADES, { error: `must be one of ${PERIODICIDADES.join(', ')}` }),
    },
    { error: 'is required: {dataInicial, periodicidade, dataFinal?}' },
  ),
  valor: z.object({ valorRec: positiveMoney('the fixed value').optional(), valorMinimoRecebedor: positiveMoney('the minimum value').optional() }).optional(),
  recebedor: z.object({ convenio: text(60).optional() }).optional(),
  politicaRetentativa: z.enum(POLITICAS, { error: `must be one of ${POLITICAS.join(', ')}` }),
  loc: locId.optional(),
  ativacao: z.object({ dadosJornada: z.object({ txid }).optional() }).optional(),
});

export const RecPatchBody = z.object({
  status: z.enum(['CANCELADA'], { error: 'can only be CANCELADA' }).optional(),
  vinculo: z.object({ devedor: z.object({ nome: text(140).min(1, { error: 'must not be empty' }) }) }).optional(),
  loc: locId.optional(),
  calendario: z.object({ dataInicial: date() }).optional(),
  ativacao: z.object({ dadosJornada: z.object({ txid }).optional() }).optional(),
});

const documents = (d: { cpf?: string | undefined; cnpj?: string | undefined }) => (d.cpf === undefined) !== (d.cnpj === undefined);
export const SolicRecBody = z.object({
  idRec,
  calendario: z.object({ dataExpiracaoSolicitacao: dateTime('dataExpiracaoSolicitacao') }, { error: 'is required: {dataExpiracaoSolicitacao}' }),
  destinatario: z
    .object(
      {
        cpf: z.string().regex(/^\d{11}$/, { error: 'must be 11 digits' }).optional(),
        cnpj: z.string().regex(/^[0-9A-Z]{14}$/, { error: 'must be 14 digits or uppercase letters' }).optional(),
        conta: text(20).min(1, { error: 'must not be empty' }),
        ispbParticipante: z.string({ error: "is required: the payer's PSP (8 digits or uppercase letters)" }).regex(/^[0-9A-Z]{8}$/, { error: 'must be 8 digits or uppercase letters' }),
        agencia: text(4).optional(),
      },
      { error: "is required: the payer's account {cpf or cnpj, conta, ispbParticipante, agencia?}" },
    )
    .refine(documents, { error: 'must have either cpf or cnpj (not both)', path: ['cpf'] }),
});

const cancelOnly = z.object({ status: z.enum(['CANCELADA'], { error: 'is required and can only be CANCELADA' }) });
export const SolicRecPatchBody = cancelOnly;
export const CobRPatchBody = cancelOnly;

export const CobRBody = z.object({
  idRec,
  infoAdicional: text(140).optional(),
  calendario: z.object({ dataDeVencimento: date() }, { error: 'is required: {dataDeVencimento}' }),
  valor: z.object({ original: positiveMoney('the value') }, { error: 'is required: {original}' }),
  ajusteDiaUtil: z.boolean({ error: 'is required: true to move a due date on a weekend or holiday to the next business day, false to keep it' }),
  devedor: z
    .object({ email: text(200).optional(), logradouro: text(200).optional(), cidade: text(200).optional(), uf: z.string().length(2, { error: 'must be 2 letters, like SP' }).optional(), cep: text(9).optional() })
    .optional(),
  recebedor: z.object(
    {
      conta: z.string({ error: "is required: the receiver's account number (GET /_sandbox/accounts/{id} lists them as receiverAccounts)" }).min(1, { error: 'must not be empty' }).max(20, { error: 'must be at most 20 characters' }),
      tipoConta: z.enum(['CORRENTE', 'POUPANCA', 'PAGAMENTO'], { error: 'is required: CORRENTE, POUPANCA or PAGAMENTO' }),
      agencia: text(4).optional(),
    },
    { error: "is required: the receiver's account {conta, tipoConta, agencia?} (GET /_sandbox/accounts/{id} lists them as receiverAccounts)" },
  ),
});

export const AutomaticoWebhookBody = z.object({
  webhookUrl: z.string({ error: 'is required: the URL that receives the notices' }).refine((v) => /^https?:\/\/[^\s/]+/i.test(v) && URL.canParse(v), { error: 'must be an http(s) URL, like https://example.com/webhook' }),
});

const period = {
  inicio: dateTime('inicio'),
  fim: dateTime('fim'),
  convenio: text(60).optional(),
  'paginacao.paginaAtual': nat(0, 1_000_000).optional(),
  'paginacao.itensPorPagina': nat(1, 1000).optional(),
};
const debtor = {
  cpf: z.string().regex(/^\d{11}$/, { error: 'must be 11 digits' }).optional(),
  cnpj: z.string().regex(/^[0-9A-Z]{14}$/, { error: 'must be 14 digits or uppercase letters' }).optional(),
};
const ordered = (q: { inicio: string; fim: string }) => Date.parse(q.fim) >= Date.parse(q.inicio);
const oneOf = (q: { cpf?: string | undefined; cnpj?: string | undefined }) => q.cpf === undefined || q.cnpj === undefined;

export const RecListQuery = z
  .object({ ...period, ...debtor, locationPresente: bool.optional(), status: z.enum(REC_STATUSES, { error: `must be one of ${REC_STATUSES.join(', ')}` }).optional() })
  .refine(ordered, { error: 'must not be before inicio', path: ['fim'] })
  .refine(oneOf, { error: 'cannot be used together with cnpj', path: ['cpf'] });
export const CobRListQuery = z
  .object({ ...period, ...debtor, idRec: idRec.optional(), status: z.enum(COBR_STATUSES, { error: `must be one of ${COBR_STATUSES.join(', ')}` }).optional() })
  .refine(ordered, { error: 'must not be before inicio', path: ['fim'] })
  .refine(oneOf, { error: 'cannot be used together with cnpj', path: ['cpf'] });
export const LocRecListQuery = z.object({ ...period, idRecPresente: bool.optional() }).refine(ordered, { error: 'must not be before inicio', path: ['fim'] });
