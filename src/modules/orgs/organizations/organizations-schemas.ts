import { Type } from 'typebox';

/**
 * The words this platform allows in an organization's `tier` and `billing_mode`
 * (docs/identity-and-organizations.md, "Organizations").
 */
export const TIERS = ['standard', 'pro', 'enterprise'] as const;
export const BILLING_MODES = ['platform_mor', 'hybrid', 'merchant_of_record'] as const;

export const Slug = Type.String({
  minLength: 3,
  maxLength: 40,
  pattern: '^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$',
  description: '3-40 characters of a-z, 0-9 and -, not starting or ending with -',
});

export const CreateOrgBody = Type.Object(
  { slug: Slug, name: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);

/** A string of `values`, or null (null leaves the field as it is). */
const oneOfOrNull = <T extends string>(values: readonly T[]) =>
  Type.Optional(Type.Unsafe<T | null>({ type: ['string', 'null'], enum: [...values, null] }));

export const UpdateOrgBody = Type.Object(
  {
    name: Type.Optional(
      Type.Unsafe<string | null>({ type: ['string', 'null'], minLength: 1, maxLength: 100 }),
    ),
    billing_mode: oneOfOrNull(BILLING_MODES),
    tier: oneOfOrNull(TIERS),
  },
  { additionalProperties: false },
);

export const DeleteOrgQuery = Type.Object({ confirm: Type.String({ maxLength: 200 }) });

export const OrganizationViewSchema = Type.Object({
  id: Type.Integer(),
  slug: Type.String(),
  name: Type.String(),
  owner_user_id: Type.Integer(),
  parent_org_id: Type.Union([Type.Integer(), Type.Null()]),
  tier: Type.String(),
  status: Type.String(),
  billing_mode: Type.String(),
  platform_fee_percent: Type.String(),
  max_customers: Type.Integer(),
  max_services: Type.Integer(),
  max_sub_resellers: Type.Integer(),
  max_api_calls_month: Type.Integer(),
  max_custom_products: Type.Integer(),
  created_at: Type.Union([Type.String(), Type.Null()]),
  updated_at: Type.Union([Type.String(), Type.Null()]),
  my_role: Type.Union([Type.String(), Type.Null()]),
});

export const LiveProductSchema = Type.Object({
  type: Type.String(),
  id: Type.Integer(),
  name: Type.String(),
  ends: Type.String(),
});
