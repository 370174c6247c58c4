// /_sandbox/accounts: tenants, their credentials, sub-accounts, institutions and wallet adjustments.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { toBrl } from '../domain/money';
import {
  addCredential,
  addSubAccount,
  adjust,
  createAccount,
  deleteAccount,
  deleteCredential,
  expireTokens,
  patchAccount,
  patchCredential,
  patchInstitution,
  patchSubAccount,
} from '../services/accounts';
import { controlConflict, controlErrors, controlSecurity, createdHeaders, json, jsonBody, pathParam } from '../wire/schemas';
import { AccountDetailSchema, AccountListSchema, AdjustmentSchema, CredentialSchema, DeletedSchema, InstitutionSchema } from './answers';
import { tenantClockView } from '../services/clocks';
import { retentionView } from '../services/retention';
import { accountDetailView, credentialView, institutionView, subAccountView } from '../wire/views';
import type { Router } from '../wire/env';
import { AccountPatchSchema, AccountSpecSchema, brlSigned, CredentialSpecSchema, institutionStatus, permissions, status, SubAccountSpecSchema } from './schemas';
import { isoTime } from '../lib/iso';
import { refuseSelfWebhooks } from '../wire/webhook-urls';
import { SubAccountSchema } from '../wire/resources/accounts';

const tags = ['Control API'];
const security = controlSecurity;
const accountId = z.object({ id: pathParam('id', 'The account id', '11111111-1111-4111-8111-111111111111') });

export function registerAccounts(app: Router, deps: Deps) {
  const view = (id: string, webhookSecrets = false) => ({
    ...accountDetailView(deps.store.account(id), { webhookSecrets, ...(deps.settings.webhookHeaderWord ? { headerWord: deps.settings.webhookHeaderWord } : {}) }),
    clock: tenantClockView(deps.clocks, id),
    retention: retentionView(deps, deps.store.account(id)),
  });

  app.openapi(
    createRoute({
      method: 'post',
      path: '/accounts',
      operationId: 'createAccount',
      tags,
      security,
      summary: 'Create an isolated account (tenant) with its credentials, wallets, projects, institutions and webhooks',
      request: {
        body: jsonBody(AccountSpecSchema, {
          name: 'Loja de testes',
          balance: 500,
          subAccounts: [{ reference: 'filial-1', name: 'Filial 1' }],
          projects: [{ name: 'Loja online', color: '#1A73E8' }],
          webhooks: [{ url: 'http://127.0.0.1:3000/webhooks' }],
        }),
      },
      responses: {
        201: { ...json(AccountDetailSchema, 'The account, with secrets (shown in full only here)'), headers: createdHeaders({ idempotent: false, location: 'The account: /_sandbox/accounts/{id}' }) },
        ...controlErrors,
        ...controlConflict('ACCOUNT_ID_TAKEN, CLIENT_ID_TAKEN, API_KEY_TAKEN, SUB_ACCOUNT_REFERENCE_TAKEN or PROJECT_NAME_TAKEN: an id or name the spec gives is in use'),
      },
    }),
    (c) => {
      const spec = c.req.valid('json');
      refuseSelfWebhooks(deps, (spec.webhooks ?? []).map((w, i) => [`webhooks[${i}].url`, w.url] as const));
      const { id } = createAccount(deps, spec);
      c.header('Location', `/_sandbox/accounts/${id}`);
      return c.json(view(id, true), 201);
    },
  );

  app.openapi(
    createRoute({ method: 'get', path: '/accounts', operationId: 'listAccounts', tags, security, summary: 'List accounts', responses: { 200: json(AccountListSchema, 'The accounts') } }),
    (c) =>
      c.json(
        {
          items: Object.values(deps.store.state.accounts).map((a) => ({
            id: a.id,
            name: a.name,
            environment: a.environment,
            status: a.status,
            subAccounts: a.subAccounts.length,
            balance: toBrl(a.wallets[a.id]!.balances.available),
          })),
        },
        200,
      ),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/accounts/{id}',
      operationId: 'getAccountDetail',
      tags,
      security,
      summary: 'Read an account with every wallet balance',
      request: { params: accountId },
      responses: { 200: json(AccountDetailSchema, 'Account'), ...controlErrors },
    }),
    (c) => c.json(view(c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/accounts/{id}',
      operationId: 'updateAccount',
      tags,
      security,
      summary: 'Change fees, limits, status, institution choice, automation or the webhook retry schedule',
      request: { params: accountId, body: jsonBody(AccountPatchSchema, { fees: { pix: { percent: 1.5 } }, automation: { completeAfterSeconds: 0 } }) },
      responses: { 200: json(AccountDetailSchema, 'Account'), ...controlErrors },
    }),
    (c) => c.json(view(patchAccount(deps, c.req.valid('param').id, c.req.valid('json')).id), 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/accounts/{id}',
      operationId: 'deleteAccount',
      tags,
      security,
      summary: 'Delete an account and everything in it',
      request: { params: accountId },
      responses: { 200: json(DeletedSchema, 'Deleted'), ...controlErrors },
    }),
    (c) => {
      const { id } = c.req.valid('param');
      deleteAccount(deps, id);
      return c.json({ id, deleted: true as const }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/accounts/{id}/credentials',
      operationId: 'createCredential',
      tags,
      security,
      summary: 'Add a credential (client id and secret)',
      request: { params: accountId, body: jsonBody(CredentialSpecSchema, { permissions: ['PIX:WRITE', 'TRANSACTION:READ'], subAccountAccess: true }) },
      responses: { 201: json(CredentialSchema, 'Credential with its secret'), ...controlErrors, ...controlConflict('CLIENT_ID_TAKEN') },
    }),
    (c) => c.json(credentialView(addCredential(deps, c.req.valid('param').id, c.req.valid('json'))), 201),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/accounts/{id}/credentials/{credentialId}',
      operationId: 'updateCredential',
      tags,
      security,
      summary: "Change a credential's permissions or sub-account access (applies to tokens already issued)",
      request: {
        params: accountId.extend({ credentialId: pathParam('credentialId', 'The credential id', '55555555-5555-4555-8555-555555555502') }),
        body: jsonBody(z.object({ permissions, subAccountAccess: z.boolean() }).partial().openapi('CredentialPatch'), { permissions: ['FULL_ACCESS'] }),
      },
      responses: { 200: json(CredentialSchema, 'Credential'), ...controlErrors },
    }),
    (c) => {
      const { id, credentialId } = c.req.valid('param');
      return c.json(credentialView(patchCredential(deps, id, credentialId, c.req.valid('json'))), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/accounts/{id}/credentials/{credentialId}/expire-tokens',
      operationId: 'expireCredentialTokens',
      tags,
      security,
      summary: "Expire every token issued for a credential so far, on every face (tokens live 300 s of real time, so no clock jump expires them); the next call with one is a 401, and POST /v2/auth gives a working one",
      request: { params: accountId.extend({ credentialId: pathParam('credentialId', 'The credential id (or its clientId)', '55555555-5555-4555-8555-555555555502') }) },
      responses: { 200: json(CredentialSchema, 'Credential'), ...controlErrors },
    }),
    (c) => {
      const { id, credentialId } = c.req.valid('param');
      return c.json(credentialView(expireTokens(deps, id, credentialId)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/accounts/{id}/credentials/{credentialId}',
      operationId: 'deleteCredential',
      tags,
      security,
      summary: 'Delete a credential: its client id stops authenticating and every token issued for it is refused at once, on every face',
      request: { params: accountId.extend({ credentialId: pathParam('credentialId', 'The credential id (or its clientId)', '55555555-5555-4555-8555-555555555502') }) },
      responses: { 200: json(DeletedSchema, 'Deleted'), ...controlErrors },
    }),
    (c) => {
      const { id, credentialId } = c.req.valid('param');
      return c.json({ id: deleteCredential(deps, id, credentialId).id, deleted: true as const }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/accounts/{id}/sub-accounts',
      operationId: 'createAccountSubAccount',
      tags,
      security,
      summary: 'Add a sub-account (any status, optional opening balance)',
      request: { params: accountId, body: jsonBody(SubAccountSpecSchema, { reference: 'loja-oeste', name: 'Loja Oeste', balance: 100 }) },
      responses: { 201: json(SubAccountSchema, 'Sub-account'), ...controlErrors, ...controlConflict('SUB_ACCOUNT_REFERENCE_TAKEN') },
    }),
    (c) => c.json(subAccountView(addSubAccount(deps, c.req.valid('param').id, c.req.valid('json'))), 201),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/accounts/{id}/sub-accounts/{reference}',
      operationId: 'updateSubAccount',
      tags,
      security,
      summary: 'Change a sub-account status (e.g. suspended) or name',
      request: {
        params: accountId.extend({ reference: pathParam('reference', 'The sub-account reference', 'loja-norte') }),
        body: jsonBody(z.object({ status, name: z.string().min(1).max(255) }).partial().openapi('SubAccountPatch'), { status: 'suspended' }),
      },
      responses: { 200: json(SubAccountSchema, 'Sub-account'), ...controlErrors },
    }),
    (c) => {
      const { id, reference } = c.req.valid('param');
      return c.json(subAccountView(patchSubAccount(deps, id, reference, c.req.valid('json'))), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/accounts/{id}/institutions/{institutionId}',
      operationId: 'updateInstitution',
      tags,
      security,
      summary: 'Take an institution up, down or out of capacity; enable or disable it',
      request: {
        params: accountId.extend({ institutionId: pathParam('institutionId', 'The institution id', '44444444-4444-4444-8444-444444444401') }),
        body: jsonBody(z.object({ status: institutionStatus, enabled: z.boolean(), name: z.string().min(1) }).partial().openapi('InstitutionPatch'), { status: 'down' }),
      },
      responses: { 200: json(InstitutionSchema, 'Institution'), ...controlErrors },
    }),
    (c) => {
      const { id, institutionId } = c.req.valid('param');
      return c.json(institutionView(patchInstitution(deps, id, institutionId, c.req.valid('json'))), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/accounts/{id}/adjustments',
      operationId: 'createAdjustment',
      tags,
      security,
      summary: 'Credit (positive) or debit (negative) a wallet as an adjustment transaction',
      request: {
        params: accountId,
        body: jsonBody(
          z.object({
            amount: brlSigned('amount').refine((c) => c !== 0, { error: 'must not be 0: positive credits, negative debits' }),
            subAccount: z.string().nullable().optional(),
            description: z.string().max(255).optional(),
          }).openapi('AdjustmentInput'),
          { amount: 250, subAccount: 'loja-centro', description: 'Opening credit' },
        ),
      },
      responses: { 201: json(AdjustmentSchema, 'The adjustment transaction'), ...controlErrors },
    }),
    (c) => {
      const { id } = c.req.valid('param');
      const tx = adjust(deps, id, c.req.valid('json'));
      return c.json({ id: tx.id, type: 'adjustment' as const, status: 'completed' as const, amount: toBrl(tx.amount), description: tx.description ?? null, createdAt: isoTime(tx.createdAt) }, 201);
    },
  );
}
