import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { Filter422, InvoiceResponse, type CustomerBilling } from '../../billing/index.ts';
import type { RealmSignIn } from '../../identity/index.ts';
import {
  OrgInvoiceParams,
  OrgInvoicesQuery,
  OrgInvoicesResponse,
  OrgParams,
  ProductModeBody,
  ProductModeParams,
  ProductModeResponse,
  ProductModesResponse,
  RefundBody,
} from './org-invoices-schemas.ts';

/** Customers whose email a search may match: enough for a page of an organization's list. */
const SEARCHED_CUSTOMERS = 500;

/**
 * An organization's view of its customers' invoices (base /api/v1/orgs/{org_slug}): the list, a
 * refund, and which products it sells itself under the hybrid billing mode.
 */
export function registerOrgInvoiceRoutes(
  app: ModuleApp,
  billing: CustomerBilling,
  realms: RealmSignIn,
): void {
  app.get(
    '/:org_slug/invoices',
    {
      schema: {
        summary: "The organization's customers' invoices, newest first (ties on id)",
        description:
          '`limit`/`offset` 50/500 (a larger limit answers 500); `status_filter` as the account list; `q` matches ' +
          "the invoice's number or the customer's email; `with_total=true` answers `{items, total, limit, offset, " +
          'counts}`: counts per status as if the filter were unset, with `all`, `open`, and `outstanding`, ' +
          'the amounts due on open invoices per currency.',
        params: OrgParams,
        querystring: OrgInvoicesQuery,
        response: { 200: OrgInvoicesResponse, ...errorResponses(401, 403, 404, 429), 422: Filter422 },
      },
      config: { auth: 'org:member' },
    },
    async (request) => {
      const orgId = request.principal!.orgId!;
      const q = request.query.q?.trim();
      const customerIds =
        q === undefined || q === ''
          ? []
          : (await realms.customersOf(orgId, { q, limit: SEARCHED_CUSTOMERS, offset: 0 })).items.map((c) =>
              Number(c.id),
            );
      return billing.orgInvoices(orgId, { ...request.query, customerIds });
    },
  );

  app.post(
    '/:org_slug/invoices/:id/refund',
    {
      schema: {
        summary: 'Refund a paid customer invoice, all of it or `amount`',
        description:
          'A card payment is refunded through the payment provider, a payment from credit back to the ' +
          "customer's credit; a `refund` row in the customer's ledger. The invoice is `refunded` once all of " +
          'it is; more than is left is 422, an invoice not paid 409.',
        params: OrgInvoiceParams,
        body: RefundBody,
        response: { 200: InvoiceResponse, ...errorResponses(401, 403, 404, 409, 413, 415, 422, 429, 503) },
      },
      config: { auth: 'org:admin', audit: 'resellers.invoice.refund' },
    },
    async (request) => {
      request.auditNote = { resourceId: request.params.id };
      return billing.refund(request.principal!.orgId!, request.params.id, request.body.amount);
    },
  );

  app.get(
    '/:org_slug/billing/product-modes',
    {
      schema: {
        summary: 'Products the organization set a billing mode for (hybrid mode), ordered by product id',
        description: 'A product not listed is sold by the platform (`platform_mor`).',
        params: OrgParams,
        response: { 200: ProductModesResponse, ...errorResponses(401, 403, 404, 422, 429) },
      },
      config: { auth: 'org:member' },
    },
    async (request) => billing.productModes(request.principal!.orgId!),
  );

  app.put(
    '/:org_slug/billing/product-modes/:product_id',
    {
      schema: {
        summary: "Who sells a product to the organization's customers under the hybrid mode",
        description:
          '`platform_mor`: the platform sells and pays the organization its share; `merchant_of_record`: the ' +
          'organization sells and the platform bills it a wholesale invoice.',
        params: ProductModeParams,
        body: ProductModeBody,
        response: { 200: ProductModeResponse, ...errorResponses(401, 403, 404, 413, 415, 422, 429) },
      },
      config: { auth: 'org:admin', audit: 'resellers.product_mode.set' },
    },
    async (request) =>
      billing.setProductMode(request.principal!.orgId!, request.params.product_id, request.body.mode),
  );
}
