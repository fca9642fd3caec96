import { Type } from 'typebox';
import { describes } from '../../../kernel/http/view-schemas.ts';
import type { LintFinding } from './lb-linter.ts';

/** One finding of the load-balancing linter (lb-linter.ts). */
export const LintFindingResponse = describes<LintFinding>()(
  Type.Object({
    severity: Type.Union([Type.Literal('error'), Type.Literal('warning'), Type.Literal('info')]),
    code: Type.String({
      description:
        'pool_unreachable, country_same_as_region, unknown_pop, proximity_pool_without_location, ' +
        'fallback_is_only_default, no_enabled_members, no_members_of_family, short_ttl_with_affinity, ' +
        'failover_member_unmonitored, pool_unreferenced',
    }),
    message: Type.String(),
    /** Dotted path into the object's body (`country_pools.BR`); the zone's list starts with the object. */
    path: Type.String(),
  }),
);
