import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { CommerceContext } from '../commerce-context.ts';
import { OrderAccessTokens } from './order-access-token.ts';
import { registerPlacedOrderRoutes } from './placed-orders-routes.ts';
import { PlacedOrdersRepository } from './placed-orders-repository.ts';
import { PlacedOrdersService } from './placed-orders-service.ts';

export interface PlacedOrdersFeature {
  /** For a cart's completion: `repository.withTx(trx)` inside its transaction. */
  readonly repository: PlacedOrdersRepository;
  /** For a cart's completion: the token its answer carries. */
  readonly tokens: OrderAccessTokens;
  routes(app: ModuleApp): void;
}

/** Placed orders: their repository and tokens (for the completion step) and the Store API's order routes. */
export function placedOrdersFeature(ctx: CommerceContext): PlacedOrdersFeature {
  const repository = new PlacedOrdersRepository(ctx.db, ctx.clock);
  const tokens = new OrderAccessTokens(ctx.sealer, ctx.clock);
  const service = new PlacedOrdersService(repository, tokens);
  return { repository, tokens, routes: (app) => registerPlacedOrderRoutes(app, service) };
}
