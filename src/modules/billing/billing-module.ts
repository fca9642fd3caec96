import { idempotentReplies } from '../../kernel/http/idempotency.ts';
import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Registry } from '../../kernel/module/registry.ts';
import type { PaymentProvider } from '../../kernel/payments/payment-provider.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { AccountsDirectory } from '../identity/index.ts';
import type { OrgDirectory } from '../orgs/index.ts';
import type { BillingInsights, CustomerBilling } from './billing-interfaces.ts';
import { CustomerBillingService } from './customer-billing.ts';
import { CustomerSales } from './customer-sales.ts';
import { randomUUID } from 'node:crypto';
import type { Invoicer, ServiceBilling, ServiceFulfilment } from '../services/index.ts';
import { billingContext } from './billing-context.ts';
import { BillingInsightsRepository, BillingRepository } from './billing-repository.ts';
import { registerBillingRoutes } from './billing-routes.ts';
import { billingConfig } from './billing-config.ts';
import { BillingRun, type BillingRunResult } from './billing-run.ts';
import type { RefundTarget } from './billing-refunds.ts';
import { BillingService } from './billing-service.ts';
import type { InvoiceView } from './billing-view.ts';
import { InvoicePdfs } from './invoice-pdf.ts';

export interface BillingModuleDeps {
  /** The deployment's payment provider (kernel/payments: `manual` by default). */
  readonly payments: PaymentProvider;
  /** The services registry, told when an invoice is paid. */
  readonly services: ServiceFulfilment;
  /** The services registry as the daily run uses it: due dates and dunning. */
  readonly serviceBilling: ServiceBilling;
  /** Payers' addresses: the run's reminder mails, the buyer on an invoice PDF. */
  readonly accounts: AccountsDirectory;
  /** Where billing offers the services registry its invoicing of priced orders. */
  readonly invoicers: Registry<Invoicer>;
  /** Organizations' owners, billing modes and fees: who sells to their storefront customers. */
  readonly orgs: OrgDirectory;
}

export interface BillingModule extends PlatformModule {
  /** The daily billing run for the UTC day of `asOf` (a day already run does nothing). */
  runDay(asOf: Date): Promise<BillingRunResult>;
  /** Billing of organizations' storefront customers, for the resellers module's routes. */
  readonly customers: CustomerBilling;
  /** An operator's refund of a paid invoice (`npm run billing -- refund`); null amount: all that is left. */
  refund(invoiceId: number, amountMinor: number | null, to: RefundTarget): Promise<InvoiceView>;
  /** The staff console's insights: hosting revenue by day. */
  readonly insights: BillingInsights;
}

/** How often the scheduler looks whether today has been run. */
const SCHEDULER_INTERVAL_MS = 5 * 60_000;

/** Account billing (base /api/v1/billing): invoices of priced orders, payments, credit, the ledger. */
export function createBillingModule(runtime: Runtime, deps: BillingModuleDeps): BillingModule {
  const ctx = billingContext(runtime);
  const sales = new CustomerSales(deps.orgs);
  const billing = new BillingService(ctx, deps.payments, deps.services, randomUUID, sales);
  const run = new BillingRun(
    ctx,
    billing,
    deps.serviceBilling,
    runtime.config.section(billingConfig),
    deps.accounts,
    sales,
  );
  billing.onPaid = (invoiceId) => run.renewalPaid(invoiceId);
  deps.invoicers.add(billing);
  const replies = idempotentReplies(runtime);
  const pdfs = new InvoicePdfs(
    new BillingRepository(ctx.db),
    deps.accounts,
    runtime.config.section(billingConfig),
  );
  let timer: NodeJS.Timeout | undefined;
  const today = async (): Promise<void> => {
    try {
      await run.run(new Date(runtime.clock.now()));
    } catch (error) {
      ctx.log.error({ err: error }, 'daily billing run failed; the next check resumes it');
    }
  };
  return {
    name: 'billing',
    prefix: '/billing',
    routes: (app) => registerBillingRoutes(app, billing, replies, pdfs),
    runDay: (asOf) => run.run(asOf),
    customers: new CustomerBillingService(ctx, billing),
    refund: (invoiceId, amountMinor, to) => billing.refund(invoiceId, amountMinor, to),
    insights: new BillingInsightsRepository(ctx.db),
    start: async () => {
      await billing.catchUp();
      // The scheduler: every few minutes, today's run (a day already run does nothing).
      timer = setInterval(() => void today(), SCHEDULER_INTERVAL_MS);
      timer.unref();
    },
    stop: async () => {
      if (timer !== undefined) clearInterval(timer);
    },
  };
}
