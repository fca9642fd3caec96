import { Type } from 'typebox';
import { describes, IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import { CustomDomainResponse } from '../custom-domains/custom-domains-schemas.ts';
import { DESCRIPTION_MAX, FAVICON_MAX_CHARS, MOTD_MAX, NAME_MAX, VERSION_NAME_MAX } from './route-fields.ts';
import type { RouteView } from './route-view.ts';
import type { AvailabilityView, NameSuggestionsView, PolicyView } from './game-routes-service.ts';

const Id = Type.Integer({ minimum: 1 });
/** The status cache TTL column is an integer; the policy's bounds are checked by the service. */
const Ttl = Type.Integer({ minimum: 0, maximum: 86_400 });
const BaseDomain = Type.String({ minLength: 1, maxLength: 253 });
/** Free text: any characters but NUL, which no text column takes. */
const FreeText = (maxLength: number) => Type.String({ maxLength, pattern: '^[^\\u0000]*$' });
const Motd = FreeText(MOTD_MAX);
const Favicon = Type.String({
  maxLength: FAVICON_MAX_CHARS,
  description: 'A data:image/png;base64,... URL of a PNG (64×64), 16 KiB at most decoded',
});
const Mode = Type.Union([Type.Literal('proxy'), Type.Literal('status_only')]);

export const RouteIdParams = Type.Object({ route_id: Id });

/** `org_id`: act for this organization (its routes, its policy); absent: the caller's account. */
export const OrgQuery = Type.Object({ org_id: Type.Optional(Id) });

export const AvailabilityBody = Type.Object(
  {
    subdomain: Type.String({
      description:
        'The subdomain to check; one that is not 3 to 32 characters of a-z, 0-9 and inner hyphens answers reason invalid',
    }),
    base_domain: Type.Optional(Nullable(BaseDomain)),
  },
  { additionalProperties: false },
);

export const NameSuggestionsBody = Type.Object(
  {
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 5 })),
    base_domain: Type.Optional(Nullable(BaseDomain)),
  },
  { additionalProperties: false },
);

export const CreateRouteBody = Type.Object(
  {
    subdomain: Type.String({ minLength: 1, maxLength: 63 }),
    base_domain: Type.Optional(Nullable(BaseDomain)),
    display_name: Type.Optional(Nullable(FreeText(NAME_MAX))),
    description: Type.Optional(Nullable(FreeText(DESCRIPTION_MAX))),
    mode: Type.Optional(Mode),
    upstream_service_id: Type.Optional(Nullable(Id)),
    upstream_host: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255 }))),
    upstream_port: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 65_535 }))),
    location_id: Type.Optional(Nullable(Id)),
    org_id: Type.Optional(Nullable(Id)),
    online_motd: Type.Optional(Nullable(Motd)),
    offline_motd: Type.Optional(Nullable(Motd)),
    favicon: Type.Optional(Nullable(Favicon)),
    version_name: Type.Optional(Nullable(FreeText(VERSION_NAME_MAX))),
    status_cache_ttl_seconds: Type.Optional(Nullable(Ttl)),
    proxy_protocol: Type.Optional(Type.Boolean()),
    real_ip: Type.Optional(Nullable(Type.Boolean())),
  },
  { additionalProperties: false },
);

export const UpdateRouteBody = Type.Object(
  {
    display_name: Type.Optional(Nullable(FreeText(NAME_MAX))),
    description: Type.Optional(Nullable(FreeText(DESCRIPTION_MAX))),
    online_motd: Type.Optional(Nullable(Motd)),
    offline_motd: Type.Optional(Nullable(Motd)),
    favicon: Type.Optional(Nullable(Favicon)),
    version_name: Type.Optional(Nullable(FreeText(VERSION_NAME_MAX))),
    status_cache_ttl_seconds: Type.Optional(Nullable(Ttl)),
    clear_favicon: Type.Optional(Type.Boolean()),
    clear_online_motd: Type.Optional(Type.Boolean()),
    clear_offline_motd: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const RouteResponse = describes<RouteView>()(
  Type.Object({
    id: Type.Integer(),
    subdomain: Type.String(),
    base_domain: Type.String(),
    address: Type.String({ description: '<subdomain>.<base_domain>: the address players join' }),
    display_name: Nullable(Type.String()),
    description: Nullable(Type.String()),
    mode: Mode,
    upstream_service_id: Nullable(Type.Integer()),
    upstream_host: Nullable(Type.String()),
    upstream_port: Nullable(Type.Integer()),
    location_id: Nullable(Type.Integer()),
    org_id: Nullable(Type.Integer()),
    online_motd: Nullable(Type.String()),
    offline_motd: Nullable(Type.String()),
    favicon: Nullable(Type.String()),
    version_name: Nullable(Type.String()),
    status_cache_ttl_seconds: Type.Integer(),
    proxy_protocol: Type.Boolean(),
    real_ip: Type.Boolean(),
    custom_domain: Nullable(CustomDomainResponse),
    created_at: IsoTime,
    updated_at: IsoTime,
  }),
);

export const AvailabilityResponse = describes<AvailabilityView>()(
  Type.Object({
    subdomain: Type.String(),
    base_domain: Type.String(),
    available: Type.Boolean(),
    reason: Nullable(Type.Union([Type.Literal('taken'), Type.Literal('reserved'), Type.Literal('invalid')])),
  }),
);

export const NameSuggestionsResponse = describes<NameSuggestionsView>()(
  Type.Object({ base_domain: Type.String(), suggestions: Type.Array(Type.String()) }),
);

export const PolicyResponse = describes<PolicyView>()(
  Type.Object({
    base_domains: Type.Array(Type.String()),
    max_routes: Type.Integer(),
    allow_custom_domains: Type.Boolean(),
    allow_proxy_protocol: Type.Boolean(),
    status_cache_ttl_seconds: Type.Object({
      default: Type.Integer(),
      min: Type.Integer(),
      max: Type.Integer(),
    }),
  }),
);
