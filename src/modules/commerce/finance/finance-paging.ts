/** A before_id page from rows fetched one past `limit`: the rows under `name` and the next cursor. */
export function beforeIdCursor<T extends { id: number }, N extends string>(
  name: N,
  rows: readonly T[],
  limit: number,
): { [K in N]: T[] } & { next_before_id: number | null } {
  const page = rows.slice(0, limit);
  const next = rows.length > limit ? page[page.length - 1]!.id : null;
  return { [name]: page, next_before_id: next } as { [K in N]: T[] } & { next_before_id: number | null };
}
