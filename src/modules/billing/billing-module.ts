import { idempotentReplies } from '../../kernel/http/idempotency.ts';
import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Registry } from '../../kernel/module/registry.ts';
import type { PaymentProvider } from '../../kernel/payments/payment-provider.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { AccountsDirectory } from '../identity/index.ts';
import type { Invoicer, ServiceFulfilment } from '../services/index.ts';
import { billingContext } from './billing-context.ts';
import { BillingRepository } from './billing-repository.ts';
import { registerBillingRoutes } from './billing-routes.ts';
import { BillingService } from './billing-service.ts';
import { billingConfig } from './billing-config.ts';
import { InvoicePdfs } from './invoice-pdf.ts';

export interface BillingModuleDeps {
  /** The deployment's payment provider (kernel/payments: `manual` by default). */
  readonly payments: PaymentProvider;
  /** The services registry, told when an invoice is paid. */
  readonly services: ServiceFulfilment;
  /** Where billing offers the services registry its invoicing of priced orders. */
  readonly invoicers: Registry<Invoicer>;
  /** Main-site accounts: the buyer's email on an invoice PDF. */
  readonly accounts: AccountsDirectory;
}

/** Account billing (base /api/v1/billing): invoices of priced orders, payments, credit, the ledger. */
export function createBillingModule(runtime: Runtime, deps: BillingModuleDeps): PlatformModule {
  const ctx = billingContext(runtime);
  const billing = new BillingService(ctx, deps.payments, deps.services);
  deps.invoicers.add(billing);
  const replies = idempotentReplies(runtime);
  const pdfs = new InvoicePdfs(
    new BillingRepository(ctx.db),
    deps.accounts,
    runtime.config.section(billingConfig),
  );
  return {
    name: 'billing',
    prefix: '/billing',
    routes: (app) => registerBillingRoutes(app, billing, replies, pdfs),
    start: () => billing.catchUp(),
  };
}
