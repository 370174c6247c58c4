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
  patchAccount,
  patchCredential,
  patchInstitution,
  patchSubAccount,
} from '../services/accounts';
import { controlErrors, json, jsonBody } from '../http/schemas';
import { accountDetailView, credentialView, institutionView, subAccountView } from '../http/views';
import type { Router } from '../http/env';
import { AccountPatchSchema, AccountSpecSchema, brlSigned, CredentialSpecSchema, institutionStatus, permissions, status, SubAccountSpecSchema } from './schemas';

const Loose = z.record(z.string(), z.unknown()).openapi('ControlObject');
const tags = ['Control API'];
const accountId = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });

export function registerAccounts(app: Router, deps: Deps) {
  const view = (id: string, webhookSecrets = false) => accountDetailView(deps.store.account(id), { webhookSecrets });

  app.openapi(
    createRoute({
      method: 'post',
      path: '/accounts',
      tags,
      summary: 'Create an isolated account (tenant) with its credentials, wallets, projects, institutions and webhooks',
      request: { body: jsonBody(AccountSpecSchema) },
      responses: { 201: json(Loose, 'The account, with secrets (shown in full only here)'), ...controlErrors },
    }),
    (c) => c.json(view(createAccount(deps, c.req.valid('json')).id, true), 201),
  );

  app.openapi(
    createRoute({ method: 'get', path: '/accounts', tags, summary: 'List accounts', responses: { 200: json(Loose, '{items}') } }),
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
    createRoute({ method: 'get', path: '/accounts/{id}', tags, summary: 'Read an account with every wallet balance', request: { params: accountId }, responses: { 200: json(Loose, 'Account'), ...controlErrors } }),
    (c) => c.json(view(c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/accounts/{id}',
      tags,
      summary: 'Change fees, limits, status, institution choice, automation or the webhook retry schedule',
      request: { params: accountId, body: jsonBody(AccountPatchSchema) },
      responses: { 200: json(Loose, 'Account'), ...controlErrors },
    }),
    (c) => c.json(view(patchAccount(deps, c.req.valid('param').id, c.req.valid('json')).id), 200),
  );

  app.openapi(
    createRoute({ method: 'delete', path: '/accounts/{id}', tags, summary: 'Delete an account and everything in it', request: { params: accountId }, responses: { 200: json(Loose, '{id, deleted}'), ...controlErrors } }),
    (c) => {
      const { id } = c.req.valid('param');
      deleteAccount(deps, id);
      return c.json({ id, deleted: true }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/accounts/{id}/credentials',
      tags,
      summary: 'Add a credential (client id and secret)',
      request: { params: accountId, body: jsonBody(CredentialSpecSchema) },
      responses: { 201: json(Loose, 'Credential with its secret'), ...controlErrors },
    }),
    (c) => c.json(credentialView(addCredential(deps, c.req.valid('param').id, c.req.valid('json'))), 201),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/accounts/{id}/credentials/{credentialId}',
      tags,
      summary: "Change a credential's permissions or sub-account access (applies to tokens already issued)",
      request: {
        params: accountId.extend({ credentialId: z.string().openapi({ param: { name: 'credentialId', in: 'path' } }) }),
        body: jsonBody(z.object({ permissions, subAccountAccess: z.boolean() }).partial()),
      },
      responses: { 200: json(Loose, 'Credential'), ...controlErrors },
    }),
    (c) => {
      const { id, credentialId } = c.req.valid('param');
      return c.json(credentialView(patchCredential(deps, id, credentialId, c.req.valid('json'))), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/accounts/{id}/sub-accounts',
      tags,
      summary: 'Add a sub-account (any status, optional opening balance)',
      request: { params: accountId, body: jsonBody(SubAccountSpecSchema) },
      responses: { 201: json(Loose, 'Sub-account'), ...controlErrors },
    }),
    (c) => c.json(subAccountView(addSubAccount(deps, c.req.valid('param').id, c.req.valid('json'))), 201),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/accounts/{id}/sub-accounts/{reference}',
      tags,
      summary: 'Change a sub-account status (e.g. suspended) or name',
      request: {
        params: accountId.extend({ reference: z.string().openapi({ param: { name: 'reference', in: 'path' } }) }),
        body: jsonBody(z.object({ status, name: z.string().min(1).max(255) }).partial()),
      },
      responses: { 200: json(Loose, 'Sub-account'), ...controlErrors },
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
      tags,
      summary: 'Take an institution up, down or out of capacity; enable or disable it',
      request: {
        params: accountId.extend({ institutionId: z.string().openapi({ param: { name: 'institutionId', in: 'path' } }) }),
        body: jsonBody(z.object({ status: institutionStatus, enabled: z.boolean(), name: z.string().min(1) }).partial()),
      },
      responses: { 200: json(Loose, 'Institution'), ...controlErrors },
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
      tags,
      summary: 'Credit (positive) or debit (negative) a wallet as an adjustment transaction',
      request: {
        params: accountId,
        body: jsonBody(
          z.object({
            amount: brlSigned('amount').refine((c) => c !== 0, { error: 'must not be 0: positive credits, negative debits' }),
            subAccount: z.string().nullable().optional(),
            description: z.string().max(255).optional(),
          }),
        ),
      },
      responses: { 201: json(Loose, 'The adjustment transaction and the wallet balance'), ...controlErrors },
    }),
    (c) => {
      const { id } = c.req.valid('param');
      const tx = adjust(deps, id, c.req.valid('json'));
      return c.json({ id: tx.id, type: tx.type, status: tx.status, amount: toBrl(tx.amount), description: tx.description ?? null, createdAt: new Date(tx.createdAt).toISOString() }, 201);
    },
  );
}
