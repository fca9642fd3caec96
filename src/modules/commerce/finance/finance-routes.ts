import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { beforeIdPage, idParams, OrgSlugParams } from '../shared/commerce-http-schemas.ts';
import type { DisputesService } from './disputes-service.ts';
import type { FinanceReadService } from './finance-read-service.ts';
import {
  BalanceResponse,
  DisputeResponse,
  EvidenceBody,
  FinancePageQuery,
  LedgerTransactionResponse,
  MerchantProfileBody,
  MerchantProfileResponse,
  PayoutBody,
  PayoutResponse,
  TaxReportQuery,
  TaxReportResponse,
} from './finance-schemas.ts';
import type { MerchantProfileService } from './merchant-profile-service.ts';
import type { PayoutsService } from './payouts-service.ts';

/** The scope table's "balance, ledger, disputes, payouts, tax reports". */
const READ = { auth: { scope: 'commerce.finance:read' } } as const;
/** "dispute evidence, sending it, accepting a dispute". */
const DISPUTE = { auth: { scope: 'commerce.disputes:write' } } as const;
/** No key manages the merchant profile or requests a payout: 403 `people_only` for every key. */
const PEOPLE_READ = { auth: { scope: 'commerce.finance:read', peopleOnly: true } } as const;
const PEOPLE_WRITE = { auth: { scope: 'commerce.store:write', peopleOnly: true } } as const;

export interface FinanceServices {
  readonly reads: FinanceReadService;
  readonly disputes: DisputesService;
  readonly payouts: PayoutsService;
  readonly profile: MerchantProfileService;
}

/**
 * The money side of the Commerce API (docs/commerce.md, "Balance, ledger, disputes and payouts"),
 * base /api/v1/orgs/{org_slug}/commerce.
 */
export function registerFinanceRoutes(app: ModuleApp, s: FinanceServices): void {
  const base = '/:org_slug/commerce';
  const org = (request: { principal: { orgId?: number } }) => request.principal.orgId!;
  app.get(
    `${base}/balance`,
    {
      schema: {
        description:
          'The balance per currency (ordered by currency code), derived from the ledger: available, pending, held.',
        params: OrgSlugParams,
        response: { 200: BalanceResponse },
      },
      config: READ,
    },
    async (request) => s.reads.balance(org(request)),
  );
  app.get(
    `${base}/ledger`,
    {
      schema: {
        description: 'Ledger transactions with their entries, newest first; page with before_id.',
        params: OrgSlugParams,
        querystring: FinancePageQuery,
        response: { 200: beforeIdPage('transactions', LedgerTransactionResponse) },
      },
      config: READ,
    },
    async (request) => s.reads.ledgerPage(org(request), request.query.before_id, request.query.limit),
  );
  app.get(
    `${base}/tax-report`,
    {
      schema: {
        description:
          'A month’s sales and tax per country and currency (ordered by country, then currency), less the month’s refunds.',
        params: OrgSlugParams,
        querystring: TaxReportQuery,
        response: { 200: TaxReportResponse },
      },
      config: READ,
    },
    async (request) => s.reads.taxReport(org(request), request.query.month),
  );
  registerDisputeRoutes(app, s.disputes);
  registerPayoutRoutes(app, s);
}

function registerDisputeRoutes(app: ModuleApp, disputes: DisputesService): void {
  const base = '/:org_slug/commerce/disputes';
  const params = idParams('dispute_id');
  app.get(
    base,
    {
      schema: {
        description: 'Disputes of the shop’s payments, newest first; page with before_id.',
        params: OrgSlugParams,
        querystring: FinancePageQuery,
        response: { 200: beforeIdPage('disputes', DisputeResponse) },
      },
      config: READ,
    },
    async (request) => disputes.list(request.principal.orgId!, request.query.before_id, request.query.limit),
  );
  app.get(
    `${base}/:dispute_id`,
    {
      schema: { description: 'One dispute.', params, response: { 200: DisputeResponse } },
      config: READ,
    },
    async (request) => disputes.get(request.principal.orgId!, request.params.dispute_id),
  );
  app.post(
    `${base}/:dispute_id/evidence`,
    {
      schema: {
        description: 'Saves evidence (fields of Stripe’s evidence object, merged over what was saved).',
        params,
        body: EvidenceBody,
        response: { 200: DisputeResponse },
      },
      config: DISPUTE,
    },
    async (request) =>
      disputes.saveEvidence(
        request.principal.orgId!,
        request.params.dispute_id,
        request.body as Record<string, string>,
      ),
  );
  app.post(
    `${base}/:dispute_id/submit`,
    {
      schema: {
        description: 'Sends the saved evidence to the bank through the provider, once.',
        params,
        response: { 200: DisputeResponse },
      },
      config: DISPUTE,
    },
    async (request) => disputes.submit(request.principal.orgId!, request.params.dispute_id),
  );
  app.post(
    `${base}/:dispute_id/accept`,
    {
      schema: {
        description: 'Accepts the dispute: its amount is lost.',
        params,
        response: { 200: DisputeResponse },
      },
      config: DISPUTE,
    },
    async (request) => disputes.accept(request.principal.orgId!, request.params.dispute_id),
  );
}

function registerPayoutRoutes(app: ModuleApp, s: FinanceServices): void {
  const base = '/:org_slug/commerce';
  app.get(
    `${base}/payouts`,
    {
      schema: {
        description: 'Payouts, newest first; page with before_id.',
        params: OrgSlugParams,
        querystring: FinancePageQuery,
        response: { 200: beforeIdPage('payouts', PayoutResponse) },
      },
      config: READ,
    },
    async (request) => s.payouts.list(request.principal.orgId!, request.query.before_id, request.query.limit),
  );
  app.post(
    `${base}/payouts`,
    {
      schema: {
        description: 'Pays out part of the available balance: an owner or admin signed in, never a key.',
        params: OrgSlugParams,
        body: PayoutBody,
        response: { 201: PayoutResponse },
      },
      config: PEOPLE_WRITE,
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await s.payouts.request(request.principal.orgId!, request.principal.userId!, request.body)),
  );
  app.get(
    `${base}/merchant-profile`,
    {
      schema: {
        description: 'The merchant profile: people only (an owner or admin signed in), never a key.',
        params: OrgSlugParams,
        response: { 200: MerchantProfileResponse },
      },
      config: PEOPLE_READ,
    },
    async (request) => s.profile.get(request.principal.orgId!),
  );
  app.put(
    `${base}/merchant-profile`,
    {
      schema: {
        description: 'Replaces the merchant profile: people only (an owner or admin signed in), never a key.',
        params: OrgSlugParams,
        body: MerchantProfileBody,
        response: { 200: MerchantProfileResponse },
      },
      config: PEOPLE_WRITE,
    },
    async (request) => s.profile.put(request.principal.orgId!, request.principal.userId!, request.body),
  );
}
