import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { StaffAccess } from '../access/staff-access.ts';
import type { StaffRole } from '../access/staff-roles.ts';
import { insightsCsv } from './insights-csv.ts';
import type { InsightsService } from './insights-service.ts';

const STAFF = { auth: 'staff' } as const;
/** Admins and billing read the insights; the tiers do not. */
const READERS: readonly StaffRole[] = ['admin', 'billing'];
const OrgParams = Type.Object({ org_slug: Type.String({ minLength: 1, maxLength: 64 }) });
const DaysQuery = Type.Object({ days: Type.Integer({ minimum: 1, maximum: 365, default: 30 }) });

const InsightsDaySchema = Type.Object({
  date: Type.String({ format: 'date' }),
  revenue: Type.Record(Type.String(), Type.String(), {
    description: 'Per currency (ISO 4217 code): a decimal string in major units',
  }),
  orders: Type.Integer(),
  new_customers: Type.Integer(),
  active_services: Type.Integer(),
  support_opened: Type.Integer(),
  support_closed: Type.Integer(),
});

const CsvResponse = {
  description: 'The insights as CSV (RFC 4180): a header row, then a row per day',
  content: { 'text/csv': { schema: Type.String() } },
};

/** The console's insights (base /api/v1/orgs/{org_slug}/staff/insights): money, orders, customers by day. */
export function registerInsightsRoutes(app: ModuleApp, access: StaffAccess, insights: InsightsService): void {
  app.get(
    '/:org_slug/staff/insights',
    {
      schema: {
        summary: 'Money, orders, customers, services and support by UTC day, oldest first, every day present',
        description:
          'Revenue: hosting invoices of the storefront customers on their payment day less their refunds on the ' +
          'refund day, plus Commerce captures less refunds, per ' +
          'currency. Orders: hosting services ordered plus Commerce orders placed. Support counts stay 0 until ' +
          'support exists. Admins and billing only.',
        params: OrgParams,
        querystring: DaysQuery,
        response: {
          200: Type.Object({
            days: Type.Integer(),
            currencies: Type.Array(Type.String()),
            rows: Type.Array(InsightsDaySchema),
          }),
          ...errorResponses(401, 403, 404, 422, 429),
        },
      },
      config: STAFF,
    },
    async (request) => {
      const caller = await access.callerIn(request, READERS);
      return insights.daily(caller.orgId, request.query.days);
    },
  );

  app.get(
    '/:org_slug/staff/insights/export.csv',
    {
      schema: {
        summary: 'The insights as CSV: a column per measure (revenue_<currency> per currency), a row per day',
        params: OrgParams,
        querystring: DaysQuery,
        response: { 200: CsvResponse, ...errorResponses(401, 403, 404, 422, 429) },
      },
      config: STAFF,
    },
    async (request, reply) => {
      const caller = await access.callerIn(request, READERS);
      const csv = insightsCsv(await insights.daily(caller.orgId, request.query.days));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="insights-${request.query.days}d.csv"`)
        .send(csv);
    },
  );
}
