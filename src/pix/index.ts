// The PIX module: pure functions (no clock, no randomness of their own, no I/O) for BR Codes, their QR images,
// end-to-end ids and Brazilian documents / PIX keys.
export { encodeTlv, parseTlv, type TlvField } from './tlv';
export { crc16CcittFalse } from './crc16';
export {
  PIX_GUI,
  buildDynamicBrCode,
  buildStaticBrCode,
  buildRecBrCode,
  withRecurrence,
  parseBrCode,
  toBrCodeText,
  type DynamicBrCodeInput,
  type ParsedBrCode,
  type StaticBrCodeInput,
} from './brcode';
export { checkBrCode, MAX_BR_CODE_LENGTH, type BrCodeCheck, type BrCodeCheckName, type BrCodeDecoded, type BrCodeReport } from './check';
export { qrMatrix, qrPng, qrPngDataUrl, qrSegments, type QrMatrix, type QrPngOptions, type QrSegment } from './qr';
export { isE2eId, makeE2eId } from './e2e';
export {
  checkDigitsProblem,
  documentKind,
  generateCnpj,
  generateCpf,
  isValidCnpj,
  isValidCpf,
  normalizeDocument,
  validateHolderDocument,
  validatePixKey,
  type HolderDocumentType,
  type PixKeyType,
} from './documents';
export type { RandomInt } from './random';
