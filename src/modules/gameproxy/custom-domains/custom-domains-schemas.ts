import { Type } from 'typebox';
import { describes, IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import type { CustomDomainView } from './custom-domains-service.ts';

/** A route's custom domain: its own read, and the `custom_domain` of each route in a list. */
export const CustomDomainResponse = describes<CustomDomainView>()(
  Type.Object({
    domain: Type.String(),
    fqdn: Type.String({ description: 'subdomain.domain (or the domain): the name players type' }),
    status: Type.Union([Type.Literal('pending'), Type.Literal('verified'), Type.Literal('failed')], {
      description:
        'verified: edge nodes route the fqdn; failed: the CNAME went missing three daily checks in a row',
    }),
    cname_target: Type.String({
      description: 'The route’s own address, which the fqdn’s CNAME must point at',
    }),
    checked_at: Nullable(IsoTime),
    include_in_list: Type.Boolean(),
    last_error: Nullable(Type.String({ description: 'What the last check found instead of the CNAME' })),
  }),
);
