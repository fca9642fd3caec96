import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { Deleted, idParams, OrgSlugParams } from '../shared/commerce-http-schemas.ts';
import { PromotionResponse } from './promotion-view.ts';
import { CreatePromotionBody, UpdatePromotionBody } from './promotions-schemas.ts';
import type { PromotionsService } from './promotions-service.ts';

/** Reads and writes alike: the scope table's `commerce.promotions:write` (docs/keys-and-limits.md). */
const WRITE = { auth: { scope: 'commerce.promotions:write' } } as const;

/**
 * Promotions (docs/commerce.md, "Promotions"); their list, `GET .../commerce/promotions`, is
 * one of the Commerce lists (lists/commerce-lists-routes.ts).
 */
export function registerPromotionRoutes(app: ModuleApp, service: PromotionsService): void {
  const base = '/:org_slug/commerce/promotions';
  const params = idParams('promotion_id');
  app.post(
    base,
    {
      schema: {
        description:
          'Creates a promotion: percentage (`value`) or fixed (`amounts` per currency), on the order or on items. A code taken in any case answers 409.',
        params: OrgSlugParams,
        body: CreatePromotionBody,
        response: { 201: PromotionResponse, ...errorResponses(409) },
      },
      config: WRITE,
    },
    async (request, reply) =>
      reply.code(201).send(await service.create(request.principal.orgId!, request.body)),
  );
  app.get(
    `${base}/:promotion_id`,
    {
      schema: {
        description: 'A promotion; its money per currency sorted by currency code.',
        params,
        response: { 200: PromotionResponse },
      },
      config: WRITE,
    },
    async (request) => service.get(request.principal.orgId!, request.params.promotion_id),
  );
  app.patch(
    `${base}/:promotion_id`,
    {
      schema: {
        description: 'Changes a promotion; list fields replace the list; checked as the whole it leaves.',
        params,
        body: UpdatePromotionBody,
        response: { 200: PromotionResponse, ...errorResponses(409) },
      },
      config: WRITE,
    },
    async (request) => service.update(request.principal.orgId!, request.params.promotion_id, request.body),
  );
  app.delete(
    `${base}/:promotion_id`,
    {
      schema: {
        description: 'Deletes a promotion; carts lose its code, orders keep their discount.',
        params,
        response: { 200: Deleted },
      },
      config: WRITE,
    },
    async (request) => service.delete(request.principal.orgId!, request.params.promotion_id),
  );
}
