import { Type, type Static } from 'typebox';

const DATE = { pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'A day, YYYY-MM-DD (UTC)' };

export const OrgParams = Type.Object({ org_slug: Type.String({ minLength: 1, maxLength: 64 }) });

export const RangeQuery = Type.Object(
  { start_date: Type.String(DATE), end_date: Type.String(DATE) },
  { additionalProperties: false },
);
export const StatsQuery = Type.Object(
  {
    start_date: Type.String(DATE),
    end_date: Type.String(DATE),
    granularity: Type.Optional(
      Type.Union(
        [Type.Literal('daily'), Type.Literal('hourly'), Type.Literal('weekly'), Type.Literal('monthly')],
        {
          default: 'daily',
        },
      ),
    ),
  },
  { additionalProperties: false },
);
export const PagesQuery = Type.Object(
  {
    start_date: Type.String(DATE),
    end_date: Type.String(DATE),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  },
  { additionalProperties: false },
);

const Figures = {
  visitors: Type.Integer(),
  pageviews: Type.Integer(),
  visits: Type.Integer(),
  /** Percent of visits with one page view, 0–100. */
  bounce_rate: Type.Number(),
  /** Mean visit duration in seconds. */
  visit_duration_s: Type.Integer(),
  events: Type.Integer(),
};
export const StatsFigures = Type.Object(Figures);
export type StatsFigures = Static<typeof StatsFigures>;

export const StatsResponse = Type.Object({
  start_date: Type.String(),
  end_date: Type.String(),
  granularity: Type.String(),
  totals: StatsFigures,
  results: Type.Array(Type.Object({ date: Type.String({ format: 'date-time' }), ...Figures })),
});
export type StatsResponse = Static<typeof StatsResponse>;

export const PagesResponse = Type.Object({
  page: Type.Integer(),
  per_page: Type.Integer(),
  total: Type.Integer(),
  results: Type.Array(
    Type.Object({ path: Type.String(), pageviews: Type.Integer(), visitors: Type.Integer() }),
  ),
});
export type PagesResponse = Static<typeof PagesResponse>;

export const LiveResponse = Type.Object({
  visitors: Type.Integer(),
  pageviews: Type.Integer(),
  since: Type.String({ format: 'date-time' }),
});
export type LiveResponse = Static<typeof LiveResponse>;

export const TodayResponse = Type.Object({
  date: Type.String(),
  totals: StatsFigures,
  hours: Type.Array(Type.Object({ hour: Type.String({ format: 'date-time' }), ...Figures })),
});
export type TodayResponse = Static<typeof TodayResponse>;

const ConversionFigures = {
  visits: Type.Integer(),
  conversions: Type.Integer(),
  orders: Type.Integer(),
  /** Percent of visits that ended in an order, 0–100. */
  conversion_rate: Type.Number(),
};
export const ConversionsResponse = Type.Object({
  start_date: Type.String(),
  end_date: Type.String(),
  ...ConversionFigures,
  sources: Type.Array(
    Type.Object({
      source: Type.String(),
      referrer: Type.Union([Type.String(), Type.Null()]),
      utm_source: Type.Union([Type.String(), Type.Null()]),
      utm_medium: Type.Union([Type.String(), Type.Null()]),
      utm_campaign: Type.Union([Type.String(), Type.Null()]),
      ...ConversionFigures,
    }),
  ),
});
export type ConversionsResponse = Static<typeof ConversionsResponse>;
