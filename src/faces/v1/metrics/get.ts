// GET /v1/metrics (service document 4.12): revenue of the whole account by Brazilian calendar day.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../deps';
import { toBrl } from '../../../domain/money';
import { isCalendarDay, type Metrics } from '../../../domain/metrics';
import { DAY_RANGE_TEXT } from '../../../lib/clock';
import { accountMetrics } from '../../../services/metrics';
import type { Router } from '../../../wire/env';
import { apiKeyGuard } from '../apiKey';
import { json } from '../../../wire/schemas';
import { v1Errors, v1Headers, v1Security } from '../schemas';

const day = (name: 'from' | 'to', description: string) =>
  z
    .string()
    .refine(isCalendarDay, { error: `must be a calendar date YYYY-MM-DD from ${DAY_RANGE_TEXT}, like 2026-03-10` })
    .optional()
    .openapi({ param: { name, in: 'query' }, format: 'date', description });

const Query = z.object({
  from: day('from', 'First day of groupedByDay (default: 29 days before `to`)'),
  to: day('to', 'Last day of groupedByDay (default: today in Brazil, UTC-3); at most 366 days from `from`'),
});

const DaySchema = z.object({
  revenue: z.number().openapi({ description: 'BRL: payments completed that day minus refunds completed that day' }),
  mrr: z.number().openapi({ description: 'BRL: revenue of the 30 days ending that day' }),
  subscribers: z.number().int().openapi({ description: 'Distinct customers with a completed payment in the 30 days ending that day' }),
});

const MetricsSchema = z
  .object({
    totalRevenue: z.number().openapi({ description: 'BRL: every completed payment ever, minus completed refunds' }),
    currentMrr: z.number().openapi({ description: 'BRL: revenue of the 30 days ending today (Brazil)' }),
    groupedByDay: z.record(z.string(), DaySchema).openapi({ description: 'Every day from `from` to `to`, keyed YYYY-MM-DD (Brazil, UTC-3)' }),
  })
  .openapi('RevenueMetrics');

const metricsView = (m: Metrics) => ({
  totalRevenue: toBrl(m.totalRevenue),
  currentMrr: toBrl(m.currentMrr),
  groupedByDay: Object.fromEntries(Object.entries(m.groupedByDay).map(([d, v]) => [d, { revenue: toBrl(v.revenue), mrr: toBrl(v.mrr), subscribers: v.subscribers }])),
});

export function register(app: Router, deps: Deps) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/metrics',
      operationId: 'getMetrics',
      tags: ['v1 API'],
      summary: 'Revenue, MRR and subscribers of the whole account, by day in Brazil',
      security: v1Security,
      middleware: [apiKeyGuard(deps, { permissions: ['METRICS:READ'] })] as const,
      request: { headers: v1Headers, query: Query },
      responses: { 200: json(MetricsSchema, 'Revenue metrics'), ...v1Errors },
    }),
    (c) => c.json(metricsView(accountMetrics(deps, c.get('caller').account, c.req.valid('query'))), 200),
  );
}
