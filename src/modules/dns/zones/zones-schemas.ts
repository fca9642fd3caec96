import { Type } from 'typebox';
import { describes, IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import { pagePerPageQuery } from '../../../kernel/paging/paging.ts';
import type { DnssecInfo } from '../dnssec/dnssec-service.ts';
import type { ZoneView } from './zone-view.ts';

export const ZoneIdParams = Type.Object({ zone_id: Type.Integer({ minimum: 1 }) });

export const CreateZoneBody = Type.Object(
  {
    domain: Type.String({ minLength: 1, maxLength: 255 }),
    /** The zone belongs to this organization (the caller must be its owner or an admin). */
    org_slug: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    /** The DNS hosting service the zone counts against (at most its `max_zones`). */
    service_id: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);

export const UpdateZoneBody = Type.Object(
  {
    soa_email: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 254 })),
    dnssec_enabled: Type.Optional(Type.Boolean()),
    /** With dnssec_enabled: true — ECDSAP256SHA256 (13, default) or ED25519 (15). */
    dnssec_algorithm: Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Integer()])),
    /**
     * With DNSSEC on (or dnssec_enabled: true) — how negative answers are proven: nsec3 (default for
     * zones signed from now on), an NSEC3 chain signed with the zone; online, NSEC signed per answer.
     */
    dnssec_denial: Type.Optional(Type.Union([Type.Literal('nsec3'), Type.Literal('online')])),
  },
  { additionalProperties: false },
);

/** Zones by domain, page/per_page 25/100. */
export const ListZonesQuery = pagePerPageQuery(25, 100, {
  /** Only this organization's zones. */
  org_slug: Type.Optional(Type.String({ maxLength: 64 })),
});

export const ZoneResponse = describes<ZoneView>()(
  Type.Object({
    id: Type.Integer(),
    service_id: Nullable(Type.Integer()),
    user_id: Type.Integer(),
    org_id: Nullable(Type.Integer()),
    domain: Type.String(),
    status: Type.String(),
    dnssec_enabled: Type.Boolean(),
    serial: Type.Integer(),
    soa_email: Type.String(),
    record_count: Nullable(Type.Integer()),
    created_at: IsoTime,
    updated_at: IsoTime,
  }),
);

export const ZoneDnssecResponse = describes<DnssecInfo>()(
  Type.Object({
    enabled: Type.Boolean(),
    algorithm: Nullable(Type.String()),
    /** nsec3: an NSEC3 chain signed with the zone; online: NSEC signed per answer; null when not signed. */
    denial: Nullable(Type.Union([Type.Literal('nsec3'), Type.Literal('online')])),
    ksk_key_tag: Nullable(Type.Integer()),
    zsk_key_tag: Nullable(Type.Integer()),
    /**
     * The DS the owner gives the parent zone, in presentation form: one per KSK the parent should
     * have (two while a KSK rollover waits for the parent), oldest first.
     */
    ds_records: Type.Array(Type.String()),
    zsk_rotated_at: Nullable(IsoTime),
    /** Every key in the DNSKEY RRset, oldest first. */
    keys: Type.Array(
      Type.Object({
        key_tag: Type.Integer(),
        role: Type.Union([Type.Literal('ksk'), Type.Literal('zsk')]),
        state: Type.Union([Type.Literal('published'), Type.Literal('active'), Type.Literal('retired')], {
          description: 'published: in the DNSKEY RRset, not signing yet; active: signing; retired: leaving',
        }),
        created_at: IsoTime,
      }),
    ),
    /** The running KSK rollover, or null. */
    rollover: Nullable(
      Type.Object({
        key: Type.Literal('ksk'),
        state: Type.Union([
          Type.Literal('waiting_for_parent_ds'),
          Type.Literal('parent_ds_seen'),
          Type.Literal('retiring_old_key'),
        ]),
        started_at: Nullable(IsoTime),
        last_parent_check_at: Nullable(IsoTime),
      }),
    ),
  }),
);

export const RolloverBody = Type.Object(
  {
    key: Type.Literal('ksk', {
      description: 'The key to roll: only the KSK (the ZSK rolls on its own schedule).',
    }),
  },
  { additionalProperties: false },
);
