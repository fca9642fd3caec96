import { Type } from 'typebox';
import type { Principal } from '../../../kernel/auth/principal.ts';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { StoreService } from '../store/store-service.ts';

/** The Store API's routes are called by a shopper's client with the shop's publishable key. */
export const STOREFRONT = { auth: 'publishable' } as const;

/** Who calls a Store route: the publishable key's organization, sales channel and mode. */
export interface StoreKeyScope {
  readonly orgId: number;
  readonly salesChannelId: number;
  readonly mode: 'test' | 'live';
}

/** The calling key's scope, as the Store API's door set it on the principal. */
export function storeKeyScopeOf(request: { principal: Principal }): StoreKeyScope {
  const p = request.principal;
  return { orgId: p.orgId!, salesChannelId: p.salesChannelId!, mode: p.keyMode! };
}

export const StoreOrgParams = Type.Object({ org_slug: Type.String({ maxLength: 100 }) });

const StoreInfo = Type.Object({
  name: Type.Union([Type.String(), Type.Null()]),
  default_currency_code: Type.String(),
  support_email: Type.Union([Type.String(), Type.Null()]),
  sales_channel_id: Type.Integer(),
  mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
});

/** `GET /orgs/{org_slug}/store`: the shop as its storefront shows it, and the calling key's channel and mode. */
export function registerStorefrontInfoRoutes(app: ModuleApp, store: StoreService): void {
  app.get(
    '/:org_slug/store',
    {
      config: STOREFRONT,
      schema: {
        summary:
          'Store info: name, default currency, support e-mail, and the calling key’s sales channel and mode',
        params: StoreOrgParams,
        response: { 200: StoreInfo, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const { orgId, salesChannelId, keyMode } = request.principal;
      const settings = await store.settings(orgId!);
      return {
        name: settings.name,
        default_currency_code: settings.default_currency_code,
        support_email: settings.support_email,
        sales_channel_id: salesChannelId!,
        mode: keyMode!,
      };
    },
  );
}
