import { Type } from 'typebox';
import { pagePerPageQuery } from '../../../kernel/paging/paging.ts';

export const ZoneIdParams = Type.Object({ zone_id: Type.Integer({ minimum: 1 }) });

export const CreateZoneBody = Type.Object(
  {
    domain: Type.String({ minLength: 1, maxLength: 255 }),
    /** The zone belongs to this organization (the caller must be its owner or an admin). */
    org_slug: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);

export const UpdateZoneBody = Type.Object(
  {
    soa_email: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 254 })),
    dnssec_enabled: Type.Optional(Type.Boolean()),
    /** With dnssec_enabled: true — ECDSAP256SHA256 (13, default) or ED25519 (15). */
    dnssec_algorithm: Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Integer()])),
  },
  { additionalProperties: false },
);

/** Seed: zones by domain, page/per_page 25/100. */
export const ListZonesQuery = pagePerPageQuery(25, 100, {
  /** Only this organization's zones. */
  org_slug: Type.Optional(Type.String({ maxLength: 64 })),
});
