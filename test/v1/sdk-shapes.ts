// The answers of the service's SDKs, as data (sandbox.md 12): the field lists of the Node SDK's TypeScript interfaces
// (pague-dev/sdk-node 0.2.2, and the 2.x interfaces in its history: AccountInfo, BalanceBlock, Withdrawal,
// StaticQrCode, RequestRefund) and the keys of the PHP SDK's tests/fixtures (MountBit/pague-dev-php-sdk v1 releases),
// and the request bodies the PHP SDK's v1 requests send. Facts to match, written down here; no SDK code.

export interface Shape {
  required: readonly string[];
  optional: readonly string[];
}

export const NODE_SDK = {
  Customer: { required: ['id', 'name', 'documentType', 'document', 'createdAt'], optional: ['email', 'phone'] },
  Project: { required: ['id', 'name', 'color', 'createdAt'], optional: ['description', 'logoUrl'] },
  PixCharge: { required: ['id', 'status', 'amount', 'currency', 'pixCopyPaste', 'expiresAt', 'createdAt'], optional: ['externalReference', 'customerId'] },
  StaticQrCode: { required: ['id', 'status', 'amount', 'currency', 'pixCopyPaste', 'expiresAt', 'createdAt'], optional: ['qrCodeBase64', 'externalReference'] },
  Charge: {
    required: ['id', 'projectId', 'name', 'amount', 'currency', 'status', 'slug', 'url', 'paymentMethods', 'notifications', 'allowCoupons', 'paymentsCount', 'totalCollected', 'createdAt'],
    optional: ['customerId', 'description', 'maxInstallments', 'expiresAt', 'updatedAt'],
  },
  Transaction: {
    required: ['id', 'status', 'type', 'paymentMethod', 'amount', 'currency', 'createdAt'],
    optional: ['description', 'externalReference', 'customerId', 'projectId', 'metadata', 'pixCopyPaste', 'expiresAt', 'paidAt', 'updatedAt'],
  },
  RequestRefund: { required: ['originalTransactionId', 'pspProvider', 'pspRefundTransactionId', 'status'], optional: [] },
  AccountInfo: { required: ['account', 'company', 'balance'], optional: [] },
  AccountDetail: { required: ['id', 'status'], optional: [] },
  BalanceDetail: { required: ['available', 'promotional', 'held', 'total', 'currency', 'updatedAt'], optional: [] },
  BalanceBlocksList: { required: ['items', 'total'], optional: [] },
  BalanceBlock: {
    required: ['id', 'transactionId', 'externalReference', 'e2eId', 'amount', 'status', 'blockType', 'referenceNumber', 'reason', 'resolutionReason', 'resolvedAt', 'createdAt'],
    optional: [],
  },
  Withdrawal: {
    required: ['id', 'bankAccountId', 'amount', 'feeAmount', 'netAmount', 'status', 'snapshotPixKey', 'snapshotPixKeyType', 'snapshotHolderName', 'snapshotHolderDocument', 'failureReason', 'pspReference', 'createdAt', 'processedAt'],
    optional: [],
  },
  PaginatedResponse: { required: ['items', 'total', 'page', 'limit', 'totalPages'], optional: [] },
  ErrorResponse: { required: ['statusCode', 'error', 'message'], optional: ['details', 'timestamp', 'traceId'] },
} as const satisfies Record<string, Shape>;

/** Keys of the PHP SDK's documented answers (tests/fixtures/<resource>/<op>/<status>.json). */
export const PHP_FIXTURE_KEYS = {
  'customers/create/201': ['id', 'name', 'email', 'documentType', 'document', 'createdAt', 'phone'],
  'projects/create/201': ['id', 'name', 'color', 'createdAt', 'description', 'logoUrl'],
  'pix/dynamic/create/201': ['id', 'status', 'amount', 'currency', 'pixCopyPaste', 'expiresAt', 'customerId', 'createdAt', 'qrCodeBase64', 'externalReference'],
  'pix/static/create/201': ['id', 'status', 'amount', 'currency', 'pixCopyPaste', 'createdAt', 'qrCodeBase64', 'externalReference'],
  'charges/create/201': [
    'id', 'projectId', 'name', 'currency', 'status', 'slug', 'url', 'paymentMethods', 'maxInstallments', 'notifications', 'allowCoupons', 'paymentsCount', 'totalCollected',
    'createdAt', 'customerId', 'description', 'amount', 'expiresAt', 'updatedAt',
  ],
  'transactions/get/200': ['id', 'status', 'type', 'paymentMethod', 'amount', 'currency', 'createdAt', 'description', 'externalReference', 'customerId', 'projectId', 'metadata', 'pixCopyPaste', 'expiresAt', 'paidAt', 'updatedAt'],
  'withdrawals/create/201': ['id', 'bankAccountId', 'amount', 'feeAmount', 'netAmount', 'status', 'snapshotHolderName', 'snapshotHolderDocument', 'createdAt', 'snapshotPixKey', 'snapshotPixKeyType', 'failureReason', 'pspReference', 'processedAt'],
  'metrics/list/200': ['totalRevenue', 'currentMrr', 'groupedByDay'],
  'list/200': ['items', 'total', 'page', 'limit', 'totalPages'],
} as const;

/**
 * The bodies the PHP SDK's v1 requests send (src/Requests/*: defaultBody), as built from its integration tests'
 * arguments. The dynamic and static PIX requests always send projectId, null when not given.
 */
export const PHP_REQUESTS = {
  customer: { name: 'João da Silva', document: '12345678909', email: 'jsmith@example.com', phone: '+5511999998888' },
  project: { name: 'Minha Loja', color: '#3B82F6', description: 'Loja virtual de eletrônicos', logoUrl: 'https://example.com/logo.png' },
  pixWithCustomer: { amount: 150.75, description: 'Pedido 12345', projectId: null, customer: { name: 'João da Silva', document: '12345678909', email: 'jsmith@example.com' }, externalReference: 'pedido-12345' },
  staticPix: { amount: 25, description: 'Doação', projectId: null, externalReference: 'pedido-12345', metadata: { source: 'php' } },
  charge: { name: 'Produto Premium', amount: 99.9, paymentMethods: ['pix', 'credit_card'], allowCoupons: true, notifications: ['email'] },
  withdrawalPix: { amount: 5, pixKey: 'teste@teste.com.br', pixKeyType: 'email', holderName: 'Teste Silva', holderDocument: '52998224725', holderDocumentType: 'cpf' },
  withdrawalBank: { amount: 5 },
} as const;
