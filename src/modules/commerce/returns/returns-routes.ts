import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { actorOf } from '../refunds/change-audit.ts';
import { idParams, listOf, OrgSlugParams, offsetPage } from '../shared/commerce-http-schemas.ts';
import { STOREFRONT } from '../storefront/storefront-info-routes.ts';
import type { ReturnRequests } from './return-requests.ts';
import type { ReturnTransitions } from './return-transitions.ts';
import { ReturnResponse } from './return-view.ts';
import type { ReturnsService } from './returns-service.ts';

const READ = { auth: { scope: 'commerce.orders:read' } } as const;
/** The audit entry is written in each change's transaction (refunds/change-audit.ts). */
const RETURNS = { auth: { scope: 'commerce.returns:write' }, audit: false } as const;
const REFUNDS = { auth: { scope: 'commerce.refunds:write' }, audit: false } as const;

const ItemsOf = (what: string) =>
  Type.Array(
    Type.Object(
      {
        item_id: Type.Integer({ minimum: 1, description: 'the order item (the order’s `items[].id`)' }),
        quantity: Type.Integer({ minimum: 1, maximum: 1_000_000, description: what }),
      },
      { additionalProperties: false },
    ),
    { minItems: 1, maxItems: 500 },
  );

const NewReturnBody = Type.Object(
  {
    items: ItemsOf('units to send back: no more than shipped and not already returned'),
    reason_id: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
    note: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
    shipping_option_id: Type.Optional(
      Type.Integer({ minimum: 1, description: 'an `is_return` option of the order’s region' }),
    ),
  },
  { additionalProperties: false },
);
const RejectBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 2000 }) },
  { additionalProperties: false },
);
const ReceiveBody = Type.Object(
  {
    items: Type.Optional(ItemsOf('units that came back (items not named: none)')),
    location_id: Type.Optional(
      Type.Integer({ minimum: 1, description: 'restocks the units received at this stock location' }),
    ),
  },
  { additionalProperties: false },
);
const RefundBody = Type.Object(
  {
    amount: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1e12,
        description: 'major units; default: what the received units were paid',
      }),
    ),
    note: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
const ListQuery = Type.Object({
  status: Type.Optional(
    Type.Union(
      (['requested', 'approved', 'received', 'refunded', 'rejected', 'canceled'] as const).map((s) =>
        Type.Literal(s),
      ),
    ),
  ),
  order_id: Type.Optional(Type.Integer({ minimum: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
});
const TokenQuery = Type.Object({
  token: Type.Optional(Type.String({ maxLength: 512, description: 'the order’s access token' })),
});

export interface ReturnsFeature {
  readonly service: ReturnsService;
  readonly requests: ReturnRequests;
  readonly transitions: ReturnTransitions;
}

/** Returns (docs/commerce.md, "Returns and refunds"): the Commerce API's and the Store API's routes. */
export function registerReturnRoutes(
  app: ModuleApp,
  { service, requests, transitions }: ReturnsFeature,
): void {
  const one = idParams('return_id');
  const ofOrder = idParams('order_id');
  app.get(
    '/:org_slug/commerce/returns',
    {
      schema: {
        description:
          'The shop’s returns, newest first (`status`, `order_id`; `limit` 50, at most 200, `offset`).',
        params: OrgSlugParams,
        querystring: ListQuery,
        response: { 200: offsetPage('returns', ReturnResponse) },
      },
      config: READ,
    },
    async (request) => service.list(request.principal.orgId!, request.query),
  );
  app.get(
    '/:org_slug/commerce/returns/:return_id',
    {
      schema: {
        description: 'One return, its items in order item order.',
        params: one,
        response: { 200: ReturnResponse },
      },
      config: READ,
    },
    async (request) => service.one(request.principal.orgId!, request.params.return_id),
  );
  app.get(
    '/:org_slug/commerce/orders/:order_id/returns',
    {
      schema: {
        description: 'The order’s returns, oldest first.',
        params: ofOrder,
        response: { 200: listOf('returns', ReturnResponse) },
      },
      config: READ,
    },
    async (request) => ({
      returns: await service.ofOrder(request.principal.orgId!, request.params.order_id),
    }),
  );
  app.post(
    '/:org_slug/commerce/orders/:order_id/returns',
    {
      schema: {
        description: 'Asks, for the shopper, for units of the order to come back: the return is `requested`.',
        params: ofOrder,
        body: NewReturnBody,
        response: { 201: ReturnResponse },
      },
      config: RETURNS,
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await requests.request(
            request.principal.orgId!,
            request.params.order_id,
            request.body,
            'merchant',
            actorOf(request),
          ),
        ),
  );
  app.post(
    '/:org_slug/commerce/returns/:return_id/approve',
    {
      schema: { description: 'Approves a requested return.', params: one, response: { 200: ReturnResponse } },
      config: RETURNS,
    },
    async (request) =>
      transitions.approve(request.principal.orgId!, request.params.return_id, actorOf(request)),
  );
  app.post(
    '/:org_slug/commerce/returns/:return_id/reject',
    {
      schema: {
        description: 'Rejects a requested or approved return, saying why.',
        params: one,
        body: RejectBody,
        response: { 200: ReturnResponse },
      },
      config: RETURNS,
    },
    async (request) =>
      transitions.reject(
        request.principal.orgId!,
        request.params.return_id,
        request.body.reason,
        actorOf(request),
      ),
  );
  app.post(
    '/:org_slug/commerce/returns/:return_id/receive',
    {
      schema: {
        description: 'Records what came back of an approved return; restocks it at `location_id` when given.',
        params: one,
        body: ReceiveBody,
        response: { 200: ReturnResponse },
      },
      config: { ...RETURNS, optionalBody: true },
    },
    async (request) =>
      transitions.receive(
        request.principal.orgId!,
        request.params.return_id,
        request.body ?? {},
        actorOf(request),
      ),
  );
  app.post(
    '/:org_slug/commerce/returns/:return_id/cancel',
    {
      schema: {
        description: 'Cancels a requested or approved return.',
        params: one,
        response: { 200: ReturnResponse },
      },
      config: RETURNS,
    },
    async (request) =>
      transitions.cancel(request.principal.orgId!, request.params.return_id, actorOf(request)),
  );
  app.post(
    '/:org_slug/commerce/returns/:return_id/refund',
    {
      schema: {
        description: 'Refunds a received return: by default what its received units were paid, tax included.',
        params: one,
        body: RefundBody,
        response: { 200: ReturnResponse },
      },
      config: { ...REFUNDS, optionalBody: true },
    },
    async (request) =>
      transitions.refund(
        request.principal.orgId!,
        request.params.return_id,
        request.body ?? {},
        actorOf(request),
      ),
  );
  app.get(
    '/:org_slug/store/orders/:order_id/returns',
    {
      config: STOREFRONT,
      schema: {
        summary: 'The order’s returns, oldest first, opened by its access token',
        params: ofOrder,
        querystring: TokenQuery,
        response: { 200: listOf('returns', ReturnResponse), ...errorResponses(404) },
      },
    },
    async (request) => ({
      returns: await service.shopperList(request.principal, request.params.order_id, request.query.token),
    }),
  );
  app.post(
    '/:org_slug/store/orders/:order_id/returns',
    {
      config: { ...STOREFRONT, audit: false },
      schema: {
        summary: 'Asks for a return of shipped units of the order, opened by its access token',
        params: ofOrder,
        querystring: TokenQuery,
        body: NewReturnBody,
        response: { 201: ReturnResponse, ...errorResponses(404) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await service.shopperRequest(
            request.principal,
            request.params.order_id,
            request.query.token,
            request.body,
            actorOf(request),
          ),
        ),
  );
}
