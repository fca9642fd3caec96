import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import { IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { StaffAccess } from '../access/staff-access.ts';
import type { CouponsService } from './coupons-service.ts';

const STAFF = { auth: 'staff' } as const;
const Slug = Type.String({ minLength: 1, maxLength: 64 });
const SlugParams = Type.Object({ org_slug: Slug });
const CouponParams = Type.Object({
  org_slug: Slug,
  coupon_id: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }),
});
const Status = Type.Enum(['active', 'disabled', 'expired']);
const When = Nullable(Type.String({ format: 'date-time' }));
const Count = Type.Integer({ minimum: 1, maximum: 1_000_000_000 });
const Value = Type.Union([Type.Number(), Type.String({ minLength: 1, maxLength: 20 })], {
  description: 'A percent (0 < p ≤ 100) or an amount of `currency`, up to 2 decimals; "12.50" or 12.5',
});
const ProductIds = Type.Array(Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }), { maxItems: 500 });
const Description = Type.String({ maxLength: 500 });
/** A coupon's code is handed out to customers, not a secret: answers show it (the API fuzzer reads this mark). */
const Code = Type.String({
  pattern: '^[A-Za-z0-9_-]{1,64}$',
  description: 'letters, digits, `_` and `-`; unique in the organization in any case (save10 is SAVE10)',
  'x-public': true,
});

const CouponOut = Type.Object({
  id: Type.Integer(),
  code: Type.String({ 'x-public': true }),
  description: Type.String(),
  kind: Type.String(),
  value: Type.String(),
  currency: Nullable(Type.String()),
  applies_to: Nullable(Type.Array(Type.Integer())),
  first_invoice_only: Type.Boolean(),
  max_redemptions: Nullable(Type.Integer()),
  per_customer_limit: Nullable(Type.Integer()),
  redeemed_count: Type.Integer(),
  starts_at: Nullable(IsoTime),
  ends_at: Nullable(IsoTime),
  status: Type.String(),
  created_at: IsoTime,
  updated_at: IsoTime,
});
const RedemptionOut = Type.Object({
  id: Type.Integer(),
  customer_id: Type.Integer(),
  service_id: Type.Integer(),
  product_id: Type.Integer(),
  currency: Type.String(),
  discount: Type.String(),
  created_at: IsoTime,
});

/** The console's coupons (base /api/v1/orgs/{org_slug}/staff/coupons; admins only). */
export function registerCouponRoutes(app: ModuleApp, access: StaffAccess, coupons: CouponsService): void {
  app.get(
    '/:org_slug/staff/coupons',
    {
      schema: {
        summary: "The organization's coupons, newest first",
        params: SlugParams,
        querystring: Type.Object({ status: Type.Optional(Status) }),
        response: { 200: Type.Array(CouponOut), ...errorResponses(401, 403, 422, 429) },
      },
      config: STAFF,
    },
    async (request) => coupons.list(await access.callerIn(request, ['admin']), request.query.status),
  );

  app.post(
    '/:org_slug/staff/coupons',
    {
      schema: {
        summary: 'Create a coupon',
        description:
          'Codes are unique per organization whatever their case (409 otherwise). Defaults: `kind` percent, ' +
          '`status` active, `first_invoice_only` true, no limits, every product. `currency` is required for ' +
          '`fixed` and refused for `percent`.',
        params: SlugParams,
        body: Type.Object(
          {
            code: Code,
            value: Value,
            description: Type.Optional(Description),
            kind: Type.Optional(Type.Enum(['percent', 'fixed'])),
            currency: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3}$' })),
            applies_to: Type.Optional(ProductIds),
            first_invoice_only: Type.Optional(Type.Boolean()),
            max_redemptions: Type.Optional(Count),
            per_customer_limit: Type.Optional(Count),
            starts_at: Type.Optional(When),
            ends_at: Type.Optional(When),
            status: Type.Optional(Status),
          },
          { additionalProperties: false },
        ),
        response: { 201: CouponOut, ...errorResponses(401, 403, 409, 415, 422, 429) },
      },
      config: STAFF,
    },
    async (request, reply) => {
      const caller = await access.callerIn(request, ['admin']);
      return reply.code(201).send(await coupons.create(caller, request.body));
    },
  );

  app.post(
    '/:org_slug/staff/coupons/feature',
    {
      schema: {
        summary: 'Turn coupon codes at checkout on or off',
        description:
          'Off: checkout shows no code field and every code is refused (`coupon_feature_off`). On by default.',
        params: SlugParams,
        body: Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false }),
        response: {
          200: Type.Object({ enabled: Type.Boolean() }),
          ...errorResponses(401, 403, 415, 422, 429),
        },
      },
      config: STAFF,
    },
    async (request) => coupons.setFeature(await access.callerIn(request, ['admin']), request.body.enabled),
  );

  app.patch(
    '/:org_slug/staff/coupons/:coupon_id',
    {
      schema: {
        summary: 'Change a coupon',
        description:
          '`value` is read in the coupon’s kind. `clear_applies_to`, `clear_max_redemptions`, `clear_ends_at` ' +
          'remove the restriction; `per_customer_limit` null removes it; `starts_at` null removes it.',
        params: CouponParams,
        body: Type.Object(
          {
            description: Type.Optional(Description),
            value: Type.Optional(Value),
            applies_to: Type.Optional(ProductIds),
            clear_applies_to: Type.Optional(Type.Boolean()),
            max_redemptions: Type.Optional(Count),
            clear_max_redemptions: Type.Optional(Type.Boolean()),
            per_customer_limit: Type.Optional(Nullable(Count)),
            starts_at: Type.Optional(When),
            ends_at: Type.Optional(When),
            clear_ends_at: Type.Optional(Type.Boolean()),
            status: Type.Optional(Status),
          },
          { additionalProperties: false },
        ),
        response: { 200: CouponOut, ...errorResponses(401, 403, 404, 415, 422, 429) },
      },
      config: STAFF,
    },
    async (request) =>
      coupons.patch(await access.callerIn(request, ['admin']), request.params.coupon_id, request.body),
  );

  app.get(
    '/:org_slug/staff/coupons/:coupon_id/redemptions',
    {
      schema: {
        summary: "A coupon's redemptions, newest first",
        params: CouponParams,
        querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }) }),
        response: { 200: Type.Array(RedemptionOut), ...errorResponses(401, 403, 404, 422, 429) },
      },
      config: STAFF,
    },
    async (request) =>
      coupons.redemptions(
        await access.callerIn(request, ['admin']),
        request.params.coupon_id,
        request.query.limit,
      ),
  );
}
