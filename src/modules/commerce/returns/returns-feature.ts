import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { ShopPaymentProviders } from '../checkout/shop-payment-providers.ts';
import type { CommerceContext } from '../commerce-context.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import type { OrderAccessTokens } from '../placed-orders/order-access-token.ts';
import { registerOrderRefundRoutes } from '../refunds/order-refunds-routes.ts';
import { OrderRefundsService } from '../refunds/order-refunds-service.ts';
import { registerReturnReasonRoutes } from './return-reasons-routes.ts';
import { ReturnReasonsService } from './return-reasons-service.ts';
import { ReturnRequests } from './return-requests.ts';
import { ReturnTransitions } from './return-transitions.ts';
import { registerReturnRoutes } from './returns-routes.ts';
import { ReturnsService } from './returns-service.ts';

/**
 * Returns, their reasons, and refunds of orders (docs/commerce.md, "Returns and refunds"): the
 * routes of the Commerce API and of the Store API. The order's access tokens are the placed
 * orders' own, so the same token opens the order and its returns.
 */
export function returnsFeature(
  ctx: CommerceContext,
  log: ShopEventLog,
  providers: ShopPaymentProviders,
  tokens: OrderAccessTokens,
): { routes(app: ModuleApp): void } {
  const reasons = new ReturnReasonsService(ctx, log);
  const requests = new ReturnRequests(ctx, log);
  const transitions = new ReturnTransitions(ctx, log, providers);
  const service = new ReturnsService(ctx, requests, tokens);
  const refunds = new OrderRefundsService(ctx, log, providers);
  return {
    routes(app) {
      registerReturnReasonRoutes(app, reasons);
      registerReturnRoutes(app, { service, requests, transitions });
      registerOrderRefundRoutes(app, refunds);
    },
  };
}
