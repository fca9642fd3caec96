import type { PlatformModule, ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { PaymentProviders } from '../../../kernel/payments/create-payment-provider.ts';
import type { OrgDirectory } from '../../orgs/index.ts';
import type { CommerceContext } from '../commerce-context.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { DisputesService } from './disputes-service.ts';
import { FinanceReadService } from './finance-read-service.ts';
import { registerFinanceRoutes } from './finance-routes.ts';
import { registerLedgerReactions } from './ledger-reactions.ts';
import { MerchantProfileService } from './merchant-profile-service.ts';
import { PayoutsService } from './payouts-service.ts';
import { registerStripeWebhookRoute } from './stripe-webhook-routes.ts';

export interface FinanceFeature {
  /** The Commerce API's money routes, and the hook that reads fee terms before a shop's request. */
  routes(app: ModuleApp): void;
  /** The payment providers' webhooks, under /api/v1/payments (outside /orgs). */
  readonly providerWebhooks: PlatformModule;
}

/**
 * The shop's money (docs/commerce.md, "Balance, ledger, disputes and payouts"): the ledger's
 * reactions to placed orders and refunds, the balance, ledger, tax report, disputes, payouts and
 * the merchant profile, and Stripe's webhook.
 */
export function financeFeature(
  ctx: CommerceContext,
  log: ShopEventLog,
  deps: {
    readonly orgs: OrgDirectory;
    readonly payments: PaymentProviders;
    readonly stripeWebhookSecret: string | null;
  },
): FinanceFeature {
  registerLedgerReactions(ctx, log, deps.orgs);
  const disputes = new DisputesService(ctx, log, deps.payments.stripeDisputes ?? null);
  const services = {
    reads: new FinanceReadService(ctx),
    disputes,
    payouts: new PayoutsService(ctx, log),
    profile: new MerchantProfileService(ctx, log),
  };
  return {
    routes(app) {
      registerFinanceRoutes(app, services);
    },
    providerWebhooks: {
      name: 'commerce-payments',
      auditName: 'commerce',
      prefix: '/payments',
      routes: (app) => registerStripeWebhookRoute(app, deps.stripeWebhookSecret, ctx.clock, disputes),
    },
  };
}
