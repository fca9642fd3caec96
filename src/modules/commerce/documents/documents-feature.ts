import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { OrgDirectory } from '../../orgs/index.ts';
import { commerceConfig } from '../commerce-config.ts';
import type { CommerceContext } from '../commerce-context.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import type { OrderAccessTokens } from '../placed-orders/order-access-token.ts';
import { DocumentsIssuer } from './documents-issuer.ts';
import { DocumentsRepository } from './documents-repository.ts';
import { registerDocumentRoutes } from './documents-routes.ts';
import { DocumentsService } from './documents-service.ts';

export interface DocumentsFeature {
  /** For the order's read: its documents. */
  readonly service: DocumentsService;
  routes(app: ModuleApp): void;
}

/**
 * Order documents: issued by reactions to `commerce.order.placed` and `commerce.refund.created`
 * (registered here, once), read through the Store and Commerce APIs.
 */
export function documentsFeature(
  ctx: CommerceContext,
  log: ShopEventLog,
  orgs: OrgDirectory,
  tokens: OrderAccessTokens,
): DocumentsFeature {
  new DocumentsIssuer(ctx, log, orgs, ctx.config.section(commerceConfig).platformSeller).listen();
  const service = new DocumentsService(new DocumentsRepository(ctx.db), tokens);
  return { service, routes: (app) => registerDocumentRoutes(app, service) };
}
