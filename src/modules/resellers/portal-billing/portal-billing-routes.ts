import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import {
  IdempotencyKeyHeader,
  idempotencyKeyOf,
  type IdempotentReplies,
} from '../../../kernel/http/idempotency.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { Principal } from '../../../kernel/auth/principal.ts';
import {
  CreditResponse,
  Filter422,
  InvoiceResponse,
  PayBody,
  type CustomerBilling,
  type InvoiceView,
} from '../../billing/index.ts';
import {
  OrgInvoiceParams,
  OrgParams,
  PortalInvoicesQuery,
  PortalInvoicesResponse,
  PortalTransactionsQuery,
  PortalTransactionsResponse,
} from '../org-invoices/org-invoices-schemas.ts';

/** The storefront principal: its userId is the customer's id, its orgId the organization's. */
const customerOf = (p: Principal | undefined) => ({ orgId: p!.orgId!, customerId: p!.userId! });

/**
 * A storefront customer's billing portal (base /api/v1/orgs/{org_slug}/portal): its own invoices,
 * paying them, its ledger and credit. Scoped by organization and customer, never by account.
 */
export function registerPortalBillingRoutes(
  app: ModuleApp,
  billing: CustomerBilling,
  replies: IdempotentReplies,
): void {
  app.get(
    '/:org_slug/portal/invoices',
    {
      schema: {
        summary: "The customer's invoices, newest first (ties on id)",
        description:
          '`limit`/`offset` 50/500 (a larger limit answers 500); `status_filter`; `q` matches the number; ' +
          '`with_total=true` answers `{items, total, limit, offset, counts}`, counts as if the filter were unset.',
        params: OrgParams,
        querystring: PortalInvoicesQuery,
        response: { 200: PortalInvoicesResponse, ...errorResponses(401, 429), 422: Filter422 },
      },
      config: { auth: 'storefront' },
    },
    async (request) => {
      const { orgId, customerId } = customerOf(request.principal);
      return billing.customerInvoices(orgId, customerId, request.query);
    },
  );

  app.get(
    '/:org_slug/portal/invoices/:id',
    {
      schema: {
        summary: "One of the customer's invoices and its lines (in the order they were written)",
        params: OrgInvoiceParams,
        response: { 200: InvoiceResponse, ...errorResponses(401, 404, 422, 429) },
      },
      config: { auth: 'storefront' },
    },
    async (request) => {
      const { orgId, customerId } = customerOf(request.principal);
      return billing.customerInvoice(orgId, customerId, request.params.id);
    },
  );

  app.post(
    '/:org_slug/portal/invoices/:id/pay',
    {
      schema: {
        summary: 'Pay an open invoice by card or from the customer’s credit',
        description:
          "`card`: through the payment provider; a decline is 402 with the provider's reason and changes " +
          "nothing. `credit`: 402 when the customer's balance does not cover it. Once paid, the services it " +
          'pays for are provisioned. An `Idempotency-Key` header makes a retry answer the first reply.',
        params: OrgInvoiceParams,
        body: PayBody,
        headers: IdempotencyKeyHeader,
        response: { 200: InvoiceResponse, ...errorResponses(401, 402, 404, 409, 413, 415, 422, 429, 503) },
      },
      config: { auth: 'storefront', audit: 'resellers.portal.invoice.pay' },
    },
    async (request) => {
      const { orgId, customerId } = customerOf(request.principal);
      const key = idempotencyKeyOf(request);
      request.auditNote = { resourceId: request.params.id };
      const answer = await replies.run(
        { userId: customerId, route: 'resellers.portal.invoice.pay', key },
        { org: orgId, id: request.params.id, body: request.body },
        async () => ({
          status: 200,
          body: await billing.pay(orgId, customerId, request.params.id, request.body, key),
        }),
      );
      return answer.body as InvoiceView;
    },
  );

  app.get(
    '/:org_slug/portal/transactions',
    {
      schema: {
        summary: "The customer's ledger, newest first",
        description:
          '`limit`/`offset` 50/500 (a larger limit answers 500); `type_filter`; `with_total=true` answers ' +
          '`{items, total, limit, offset, counts}`, counts per type as if the filter were unset, with `all`.',
        params: OrgParams,
        querystring: PortalTransactionsQuery,
        response: { 200: PortalTransactionsResponse, ...errorResponses(401, 429), 422: Filter422 },
      },
      config: { auth: 'storefront' },
    },
    async (request) => billing.transactions(customerOf(request.principal).customerId, request.query),
  );

  app.get(
    '/:org_slug/portal/credit',
    {
      schema: {
        summary: "The customer's credit balance (the sum of its own ledger)",
        params: OrgParams,
        response: { 200: CreditResponse, ...errorResponses(401, 422, 429) },
      },
      config: { auth: 'storefront' },
    },
    async (request) => billing.credit(customerOf(request.principal).customerId),
  );
}
