// The one closed vocabulary of failures. Domain and service code throw `SandboxError` with a code from this union;
// `wire/errors.ts` alone turns it into the service's error envelope. The HTTP status lives here, next to the code,
// so a code can never be mapped to two statuses.

export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  MALFORMED_JSON: 400,
  SUB_ACCOUNT_HEADER_NOT_ALLOWED: 400,
  SUB_ACCOUNT_INVALID_REFERENCE: 400,
  SPLIT_SUB_ACCOUNT_INACTIVE: 400,
  SPLIT_EXCEEDS_NET_AMOUNT: 400,
  SPLIT_PRINCIPAL_NOT_ALLOWED: 400,
  PSP_CREDENTIAL_NOT_ELIGIBLE: 400,
  INSUFFICIENT_BALANCE: 400,
  WITHDRAWAL_LIMIT_EXCEEDED: 400,
  TRANSACTION_NOT_REFUNDABLE: 400,
  COB_NOT_ACTIVE: 400,
  UNAUTHORIZED: 401,
  PERMISSION_DENIED: 403,
  SUB_ACCOUNT_FORBIDDEN: 403,
  SUB_ACCOUNT_SUSPENDED: 403,
  ORIGIN_NOT_ALLOWED: 403,
  OUTSIDE_ATTENDEE_TENANT: 403,
  READ_ONLY_CONSOLE: 403,
  WORKSHOP_CODE_WRONG: 403,
  NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  ACCOUNT_NOT_FOUND: 404,
  SUB_ACCOUNT_NOT_FOUND: 404,
  PROJECT_NOT_FOUND: 404,
  TRANSACTION_NOT_FOUND: 404,
  CREDENTIAL_NOT_FOUND: 404,
  INSTITUTION_NOT_FOUND: 404,
  WEBHOOK_NOT_FOUND: 404,
  DELIVERY_NOT_FOUND: 404,
  BALANCE_BLOCK_NOT_FOUND: 404,
  SPLIT_SUB_ACCOUNT_NOT_FOUND: 404,
  PSP_CREDENTIAL_NOT_FOUND: 404,
  CUSTOMER_NOT_FOUND: 404,
  PAYMENT_LINK_NOT_FOUND: 404,
  BANK_ACCOUNT_NOT_FOUND: 404,
  COB_NOT_FOUND: 404,
  PAYLOAD_LOCATION_NOT_FOUND: 404,
  PIX_NOT_FOUND: 404,
  DEVOLUCAO_NOT_FOUND: 404,
  REC_NOT_FOUND: 404,
  SOLICREC_NOT_FOUND: 404,
  COBR_NOT_FOUND: 404,
  PAYLOAD_LOCATION_REC_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PROJECT_NAME_TAKEN: 409,
  CUSTOMER_DOCUMENT_TAKEN: 409,
  PAYMENT_LINK_NOT_PAYABLE: 409,
  SUB_ACCOUNT_REFERENCE_TAKEN: 409,
  CLIENT_ID_TAKEN: 409,
  API_KEY_TAKEN: 409,
  ACCOUNT_ID_TAKEN: 409,
  ID_TAKEN: 409,
  INVALID_STATE_TRANSITION: 409,
  WEBHOOK_URL_NOT_SET: 409,
  TXID_AMBIGUOUS: 409,
  CLOCK_BEHIND: 409,
  WORKSHOP_CLOSED: 409,
  WORKSHOP_FULL: 409,
  WORKSHOP_NOT_STARTED: 409,
  PAYLOAD_TOO_LARGE: 413,
  HOST_NOT_ALLOWED: 421,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  PSP_UNAVAILABLE: 503,
  PSP_OUT_OF_CAPACITY: 503,
  SETTLE_TIMEOUT: 504,
  STORAGE_UNAVAILABLE: 503,
  STORAGE_FULL: 507,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The code of an error answered by a fault rule (PUT /_sandbox/faults), whatever status the rule gives (429: RATE_LIMITED). */
export const INJECTED_FAULT = 'INJECTED_FAULT';

/** Every `details.code` an answer can carry: the closed union above plus the injected fault. /openapi.json's enum. */
export const ERROR_CODES = [...(Object.keys(ERROR_STATUS) as ErrorCode[]), INJECTED_FAULT] as const satisfies readonly string[];
export type EmittedCode = ErrorCode | typeof INJECTED_FAULT;

export interface FieldError {
  field: string;
  message: string;
}

export class SandboxError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'SandboxError';
    this.code = code;
    this.details = details;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const validationError = (fields: FieldError[]) =>
  new SandboxError(
    'VALIDATION_ERROR',
    `Invalid request: ${fields.map((f) => `${f.field} ${f.message}`).join('; ')}`,
    { fields },
  );

/** A 409 for a value already taken: details hold resource, field and value (service document section 7). */
export const conflict = (code: ErrorCode, resource: string, field: string, value: string, message: string) =>
  new SandboxError(code, message, { resource, field, value });

export const notFound = (code: ErrorCode, resource: string, id: string, hint = '') =>
  new SandboxError(code, `No ${resource} with id '${id}' in this account${hint ? `. ${hint}` : ''}`, { resource, id });
