// Pix Automático's records as they are stored (account.recs, locrecs, solicrecs, cobrs) and their status words, apart
// from the rules (api-pix-rec.ts) so that types.ts can name them without importing the rules.
import type { Cents } from './money';

export const REC_STATUSES = ['CRIADA', 'APROVADA', 'REJEITADA', 'EXPIRADA', 'CANCELADA'] as const;
export type RecStatus = (typeof REC_STATUSES)[number];
export const SOLICREC_STATUSES = ['CRIADA', 'ENVIADA', 'RECEBIDA', 'REJEITADA', 'ACEITA', 'EXPIRADA', 'CANCELADA'] as const;
export type SolicRecStatus = (typeof SOLICREC_STATUSES)[number];
export const COBR_STATUSES = ['CRIADA', 'ATIVA', 'CONCLUIDA', 'EXPIRADA', 'REJEITADA', 'CANCELADA'] as const;
export type CobRStatus = (typeof COBR_STATUSES)[number];
export type TentativaStatus = 'SOLICITADA' | 'AGENDADA' | 'PAGA' | 'CANCELADA' | 'REJEITADA' | 'EXPIRADA';
export const PERIODICIDADES = ['SEMANAL', 'MENSAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] as const;
export type Periodicidade = (typeof PERIODICIDADES)[number];
export const POLITICAS = ['NAO_PERMITE', 'PERMITE_3R_7D'] as const;
export type PoliticaRetentativa = (typeof POLITICAS)[number];

export interface StatusMark<S extends string> {
  status: S;
  data: number;
}

export interface Pessoa {
  cpf?: string;
  cnpj?: string;
  nome: string;
}

export interface Rec {
  id: string;
  accountId: string;
  createdAt: number;
  vinculo: { objeto?: string; contrato: string; devedor: Pessoa };
  calendario: { dataInicial: string; dataFinal?: string; periodicidade: Periodicidade };
  valorRec?: Cents;
  valorMinimoRecebedor?: Cents;
  /** The payer's maximum for each debit, set when approving (never below valorMinimoRecebedor); a cobr above it fails its debit. */
  valorMaximoPagador?: Cents;
  politicaRetentativa: PoliticaRetentativa;
  convenio?: string;
  locId?: number;
  /** The immediate charge of a Jornada 3 (ativacao.dadosJornada.txid). */
  txidJornada?: string;
  tipoJornada?: 'JORNADA_1' | 'JORNADA_2' | 'JORNADA_3' | 'JORNADA_4';
  status: RecStatus;
  atualizacao: StatusMark<RecStatus>[];
  pagador?: { cpf?: string; cnpj?: string; ispbParticipante: string };
  /** Its recurring charges' txids, oldest first (the same-cycle rule and a cancellation read these, not every cobr). */
  cobrIds?: string[];
  /** Its confirmation requests' ids, oldest first (its answer and its ends read these, not every solicrec). */
  solicRecIds?: string[];
  encerramento?: { rejeicao?: { codigo: string; descricao: string }; cancelamento?: { solicitante: string; codigo: string; descricao: string } };
}

export interface RecLoc {
  id: string;
  numericId: number;
  token: string;
  createdAt: number;
  idRec?: string;
}

export interface SolicRec {
  id: string;
  accountId: string;
  idRec: string;
  createdAt: number;
  dataExpiracaoSolicitacao: string;
  destinatario: { cpf?: string; cnpj?: string; conta: string; ispbParticipante: string; agencia?: string };
  status: SolicRecStatus;
  atualizacao: StatusMark<SolicRecStatus>[];
}

export interface Tentativa {
  dataLiquidacao: string;
  tipo: 'AGND' | 'NTAG' | 'RIFL';
  status: TentativaStatus;
  endToEndId: string;
  atualizacao: StatusMark<TentativaStatus>[];
  rejeicao?: { codigo: string; descricao: string };
}

export interface CobR {
  id: string;
  accountId: string;
  idRec: string;
  createdAt: number;
  dataDeVencimento: string;
  ajusteDiaUtil: boolean;
  original: Cents;
  infoAdicional?: string;
  devedor?: Record<string, string>;
  /** The receiver's account it is credited to (one of receiverAccountsOf; absent in a cobr stored before it was required). */
  recebedor?: { conta: string; tipoConta: string; agencia?: string };
  status: CobRStatus;
  atualizacao: StatusMark<CobRStatus>[];
  tentativas: Tentativa[];
  encerramento?: { rejeicao?: { codigo: string; descricao: string }; cancelamento?: { solicitante: string; codigo: string; descricao: string } };
  /** The core charge its settlement made (the Pix received, in the ledger). */
  transactionId?: string;
}
