import { Type } from 'typebox';
import { describes, Nullable } from '../../../kernel/http/view-schemas.ts';
import type { TransfersView } from './transfers-service.ts';

/** Limits on list sizes (a zone has a handful of secondaries). */
export const MAX_ALLOW_FROM = 100;
export const MAX_NOTIFY_TARGETS = 20;

const TsigBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    algorithm: Type.String({ maxLength: 64 }),
    /** Base64; omitted: keep the secret already set for this key name and algorithm. */
    secret: Type.Optional(Type.String({ maxLength: 1024 })),
  },
  { additionalProperties: false },
);

export const PutTransfersBody = Type.Object(
  {
    allow_from: Type.Array(Type.String({ maxLength: 64 }), { maxItems: MAX_ALLOW_FROM }),
    tsig: Type.Union([TsigBody, Type.Null()]),
    notify: Type.Array(Type.String({ maxLength: 64 }), { maxItems: MAX_NOTIFY_TARGETS }),
  },
  { additionalProperties: false },
);

export const TransfersResponse = describes<TransfersView>()(
  Type.Object({
    zone_id: Type.Integer(),
    /** Addresses and CIDR prefixes allowed to transfer the zone. */
    allow_from: Type.Array(Type.String()),
    /** The key transfers must be signed with; its secret is never shown. */
    tsig: Nullable(Type.Object({ name: Type.String(), algorithm: Type.String() })),
    /** `<IPv4>:<port>` or `[<IPv6>]:<port>` targets NOTIFY goes to after each change. */
    notify: Type.Array(Type.String()),
  }),
);
