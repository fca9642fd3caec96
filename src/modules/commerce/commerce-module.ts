import type { AuthLayer } from '../../kernel/auth/auth-layer.ts';
import type { PaymentProviders } from '../../kernel/payments/create-payment-provider.ts';
import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { OrgDirectory } from '../orgs/index.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { registerStoreCartRoutes } from './carts/store-carts-routes.ts';
import { CartsService } from './carts/carts-service.ts';
import { CartCompletion } from './checkout/cart-completion.ts';
import { registerCheckoutRoutes } from './checkout/checkout-routes.ts';
import { PaymentSessionsService } from './checkout/payment-sessions-service.ts';
import { ShopPaymentProviders } from './checkout/shop-payment-providers.ts';
import { registerShopCatalogRoutes } from './catalog/shop-catalog-routes.ts';
import { ShopCatalogService } from './catalog/shop-catalog-service.ts';
import { commerceContext } from './commerce-context.ts';
import { CartGiftCardsService } from './gift-cards/cart-gift-cards-service.ts';
import { GiftCardCheckout } from './gift-cards/gift-card-checkout.ts';
import { GiftCardCodes } from './gift-cards/gift-card-codes.ts';
import { restoreGiftCardsOnRefund } from './gift-cards/gift-card-restore.ts';
import { readAppliedGiftCards } from './gift-cards/gift-card-usable.ts';
import { registerGiftCardRoutes } from './gift-cards/gift-cards-routes.ts';
import { GiftCardsService } from './gift-cards/gift-cards-service.ts';
import { ShopEventLog } from './events/shop-event-log.ts';
import { ShopEventsRepository } from './events/shop-events-repository.ts';
import { registerShopEventRoutes } from './events/shop-events-routes.ts';
import { registerStockRoutes } from './inventory/stock-routes.ts';
import { StockService } from './inventory/stock-service.ts';
import { CommerceListsRepository } from './lists/commerce-lists-repository.ts';
import { registerCommerceListRoutes } from './lists/commerce-lists-routes.ts';
import { registerOrderFulfillmentRoutes } from './fulfillment/order-fulfillment-routes.ts';
import { registerOrderEditRoutes } from './orders/order-edits-routes.ts';
import { OrderEditsService } from './orders/order-edits-service.ts';
import { documentsFeature } from './documents/documents-feature.ts';
import { placedOrdersFeature } from './placed-orders/placed-orders-feature.ts';
import { CartPromotionsService } from './carts/cart-promotions-service.ts';
import { registerCartPromotionRoutes } from './carts/cart-promotions-routes.ts';
import { registerPromotionRoutes } from './promotions/promotions-routes.ts';
import { PromotionsService } from './promotions/promotions-service.ts';
import { refuseNulCharacters } from './shared/nul-guard.ts';
import { returnsFeature } from './returns/returns-feature.ts';
import { registerShopRegionRoutes } from './regions/shop-regions-routes.ts';
import { ShopRegionsService } from './regions/shop-regions-service.ts';
import { registerShippingSetupRoutes } from './shipping/shipping-setup-routes.ts';
import { ShippingSetupService } from './shipping/shipping-setup-service.ts';
import { registerStoreRoutes } from './store/store-routes.ts';
import { StoreService } from './store/store-service.ts';
import { PublishableKeyCheck } from './storefront/publishable-key-check.ts';
import { registerStorefrontInfoRoutes } from './storefront/storefront-info-routes.ts';
import { registerStorefrontCatalogRoutes } from './storefront/storefront-catalog-routes.ts';
import { StorefrontCatalogService } from './storefront/storefront-catalog-service.ts';
import { keepProductPagesCurrent } from './storefront/product-pages-invalidation.ts';
import { financeFeature } from './finance/finance-feature.ts';
import { CommerceInsightsRepository } from './finance/ledger-repository.ts';

export interface CommerceModuleDeps {
  readonly auth: AuthLayer;
  /** Organizations by slug: the Store API's door checks the key's organization. */
  readonly orgs: OrgDirectory;
  /** The payment adapters a region may name (`manual`, `stripe`): the kernel's one port. */
  readonly payments: PaymentProviders;
  /** `STRIPE_WEBHOOK_SECRET` (`whsec_…`): Stripe's events are refused without it. */
  readonly stripeWebhookSecret?: string | null;
}

/** The Commerce module, and the payment providers' webhooks it answers outside /orgs. */
export interface CommerceModule extends PlatformModule {
  /** `POST /api/v1/payments/stripe/webhook` (disputes): registered as a module of its own prefix. */
  readonly providerWebhooks: PlatformModule;
  /** The staff console's insights: the shop's captures less refunds, and its orders, by day. */
  readonly insights: CommerceInsights;
}

/** A shop's money and orders by UTC day (`YYYY-MM-DD`), in [from, before). */
export interface CommerceInsights {
  /** Captures less refunds, by day and currency, integer minor units. */
  capturedLessRefunded(
    orgId: number,
    from: Date,
    before: Date,
  ): Promise<readonly { day: string; currency: string; amountMinor: number }[]>;
  /** Orders placed, by day. */
  ordersByDay(orgId: number, from: Date, before: Date): Promise<readonly { day: string; count: number }[]>;
}

/**
 * The Commerce API of an organization (base /api/v1/orgs/{org_slug}/commerce, docs/commerce.md):
 * the shop's administration — store settings, sales channels and publishable keys, regions, the
 * catalogue, shipping, stock, order edits — its event log, and the lists. Every route is behind
 * the Commerce gate (keys module): an organization key with the route's scope, or an owner's or
 * admin's token. Every change announces `commerce.<object>.<verb>` in its own transaction. And the
 * Store API (base /api/v1/orgs/{org_slug}/store), a shopper's client with a publishable key.
 */
export function createCommerceModule(runtime: Runtime, deps: CommerceModuleDeps): CommerceModule {
  const ctx = commerceContext(runtime);
  const door = new PublishableKeyCheck(ctx, deps.orgs);
  door.install(deps.auth);
  let stopListening: (() => Promise<void>) | null = null;
  let stopHearingChanges: (() => Promise<void>) | null = null;
  const log = new ShopEventLog(ctx);
  const storefront = new StorefrontCatalogService(ctx);
  const hearChanges = keepProductPagesCurrent(ctx, log, storefront.productPages);
  const lists = new CommerceListsRepository(ctx.db);
  const events = new ShopEventsRepository(ctx.db);
  const store = new StoreService(ctx, log);
  const regions = new ShopRegionsService(ctx, log);
  const catalog = new ShopCatalogService(ctx, log);
  const shipping = new ShippingSetupService(ctx, log);
  const stock = new StockService(ctx, log);
  const placedOrders = placedOrdersFeature(ctx);
  const documents = documentsFeature(ctx, log, deps.orgs, placedOrders.tokens);
  const orders = new OrderEditsService(ctx, log, (orgId, slug, id) =>
    documents.service.ofOrder(orgId, slug, id),
  );
  const carts = new CartsService(ctx, log, readAppliedGiftCards);
  const providers = new ShopPaymentProviders(deps.payments);
  const sessions = new PaymentSessionsService(ctx, carts, providers);
  const giftCodes = new GiftCardCodes(ctx.sealer);
  const giftCards = new GiftCardsService(ctx, log, giftCodes);
  const cartGiftCards = new CartGiftCardsService(ctx, log, carts, giftCodes);
  restoreGiftCardsOnRefund(ctx, log);
  const completion = new CartCompletion(
    ctx,
    log,
    carts,
    sessions,
    providers,
    placedOrders,
    new GiftCardCheckout(ctx, log, giftCards),
  );
  const promotions = new PromotionsService(ctx, log);
  const cartPromotions = new CartPromotionsService(ctx, log, carts);
  const returns = returnsFeature(ctx, log, providers, placedOrders.tokens);
  const finance = financeFeature(ctx, log, {
    orgs: deps.orgs,
    payments: deps.payments,
    stripeWebhookSecret: deps.stripeWebhookSecret ?? null,
  });
  return {
    name: 'commerce',
    prefix: '/orgs',
    providerWebhooks: finance.providerWebhooks,
    insights: new CommerceInsightsRepository(ctx.db),
    routes: (app) => {
      app.addHook('preHandler', refuseNulCharacters);
      finance.routes(app);
      registerCommerceListRoutes(app, lists);
      registerShopEventRoutes(app, events);
      registerStoreRoutes(app, store);
      registerShopRegionRoutes(app, regions);
      registerShopCatalogRoutes(app, catalog);
      registerShippingSetupRoutes(app, shipping);
      registerStockRoutes(app, stock);
      registerOrderEditRoutes(app, orders);
      registerOrderFulfillmentRoutes(app, ctx, log, providers);
      registerStorefrontInfoRoutes(app, store);
      registerStorefrontCatalogRoutes(app, storefront);
      placedOrders.routes(app);
      documents.routes(app);
      registerStoreCartRoutes(app, carts);
      registerCheckoutRoutes(app, sessions, completion);
      registerPromotionRoutes(app, promotions);
      registerCartPromotionRoutes(app, cartPromotions);
      registerGiftCardRoutes(app, giftCards, cartGiftCards);
      returns.routes(app);
    },
    async start() {
      stopListening = await door.listen();
      stopHearingChanges = await hearChanges();
    },
    async stop() {
      await stopListening?.();
      await stopHearingChanges?.();
    },
  };
}
