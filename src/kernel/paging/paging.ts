import { Type, type TSchema } from 'typebox';

/**
 * Three of the paging styles (docs/keys-and-limits.md, "Conventions every route follows") as
 * query-string schemas. A size above the largest or below 1 fails schema validation, which answers
 * 422 naming the parameter.
 */
export function pagePerPageQuery<P extends Record<string, TSchema> = Record<never, never>>(
  defaultSize: number,
  largest: number,
  extra: P = {} as P,
) {
  return Type.Object({
    page: Type.Integer({ minimum: 1, default: 1 }),
    per_page: Type.Integer({ minimum: 1, maximum: largest, default: defaultSize }),
    ...extra,
  });
}

export function limitOffsetQuery(defaultSize: number, largest: number) {
  return Type.Object({
    limit: Type.Integer({ minimum: 1, maximum: largest, default: defaultSize }),
    offset: Type.Integer({ minimum: 0, default: 0 }),
  });
}

export function beforeIdQuery(defaultSize: number, largest: number) {
  return Type.Object({
    before_id: Type.Optional(Type.Integer({ minimum: 1 })),
    limit: Type.Integer({ minimum: 1, maximum: largest, default: defaultSize }),
  });
}

/** Rows to skip for a 1-based page. */
export function pageOffset(page: number, perPage: number): number {
  return (page - 1) * perPage;
}

/** The `next_before_id` of a before_id page: the last id when the page is full, else null. */
export function nextBeforeId(ids: readonly number[], limit: number): number | null {
  return ids.length === limit ? (ids[ids.length - 1] ?? null) : null;
}

/** The parsed page/per_page query (defaults applied by the schema). */
export interface PageQuery {
  page: number;
  per_page: number;
}
