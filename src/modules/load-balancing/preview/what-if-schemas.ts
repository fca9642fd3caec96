/**
 * The `what_if` of a preview: unsaved changes to the load balancer, its
 * pools and members, and forced health, in the shapes of the real routes' bodies so they are
 * checked by the same schemas (and, in what-if.ts, by the same rules and limits).
 */
import { Type } from 'typebox';
import { Nullable } from '../../../kernel/http/view-schemas.ts';
import { UpdateLoadBalancerBody } from '../load-balancers/load-balancers-schemas.ts';
import { PreviewBody, PreviewResponse, TrafficShareQuery } from './preview-schemas.ts';
import { UpdatePoolBody } from '../pools/pools-schemas.ts';

const Id = Type.String({ pattern: '^[0-9]+$' });
const Forced = Type.Enum(['healthy', 'unhealthy']);

export const WhatIfBody = Type.Object(
  {
    load_balancer: Type.Optional(UpdateLoadBalancerBody),
    pools: Type.Optional(Type.Record(Id, UpdatePoolBody)),
    members: Type.Optional(
      Type.Record(
        Id,
        Type.Object(
          {
            enabled: Type.Optional(Type.Boolean()),
            weight: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
            priority: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    health: Type.Optional(
      Type.Object(
        {
          members: Type.Optional(Type.Record(Id, Forced)),
          pools: Type.Optional(Type.Record(Id, Forced)),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const WhatIfPreviewBody = Type.Object(
  { ...PreviewBody.properties, what_if: Type.Optional(WhatIfBody) },
  { additionalProperties: false },
);

/** A decision in brief: what the cascade chose. */
const Decision = Type.Object({
  cascade_hit: Nullable(Type.String()),
  reason: Type.String(),
  servfail: Type.Boolean(),
  pool: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() })),
  answers: Type.Array(
    Type.Object({ type: Type.Enum(['A', 'AAAA']), address: Type.String(), member_id: Type.Integer() }),
  ),
  ttl: Type.Integer(),
});

export const WhatIfPreviewResponse = Type.Object({
  ...PreviewResponse.properties,
  /** With what_if: the decision without it (same random draws), and whether pool, answers or reason differ. */
  baseline: Type.Optional(Decision),
  changed: Type.Optional(Type.Boolean()),
});

export const MatrixBody = Type.Object(
  {
    qtype: Type.Optional(Type.Enum(['A', 'AAAA'])),
    /** Countries to show besides every region; default every country in the load balancer's maps. */
    countries: Type.Optional(Type.Array(Type.String({ maxLength: 2 }), { maxItems: 250 })),
    what_if: Type.Optional(WhatIfBody),
  },
  { additionalProperties: false },
);

const Brief = Type.Object({
  cascade_hit: Nullable(Type.String()),
  pool: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() })),
});

export const MatrixResponse = Type.Array(
  Type.Object({
    /** A region code (WEU) or a country code (BR). */
    location: Type.String(),
    before: Brief,
    after: Brief,
    moved: Type.Boolean(),
  }),
);

/** POST .../traffic-share: the place as in the GET's query, and a what_if. */
export const WhatIfTrafficShareBody = Type.Object(
  { ...TrafficShareQuery.properties, what_if: Type.Optional(WhatIfBody) },
  { additionalProperties: false },
);
