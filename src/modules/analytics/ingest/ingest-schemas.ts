import { Type, type Static } from 'typebox';

export const SiteParams = Type.Object({ site_key: Type.String({ minLength: 1, maxLength: 64 }) });

const PropValue = Type.Union([Type.String({ maxLength: 500 }), Type.Number(), Type.Boolean(), Type.Null()]);

/** One hit: a page view (`name: "pageview"`), a named event, or a link (`name: "link"` with `link`). */
export const HitBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 64, pattern: '^[^\\x00-\\x1f]+$' }),
    url: Type.String({ minLength: 1, maxLength: 2000 }),
    referrer: Type.Optional(Type.String({ maxLength: 2000 })),
    screen_width: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
    props: Type.Optional(Type.Record(Type.String({ maxLength: 64 }), PropValue, { maxProperties: 30 })),
    link: Type.Optional(Type.String({ pattern: '^(cart|customer):[A-Za-z0-9_-]{1,100}$' })),
  },
  { additionalProperties: false },
);
export type HitBody = Static<typeof HitBody>;

export const Accepted = Type.Object({});
