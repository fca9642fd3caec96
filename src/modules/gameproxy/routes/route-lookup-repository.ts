import type { Kysely } from 'kysely';
import type { GameproxyTables, Route } from '../gameproxy-tables.ts';

/** Reads one route by id (whose it is, the service decides). */
export class RouteLookupRepository {
  constructor(private readonly db: Kysely<GameproxyTables>) {}

  async find(routeId: number): Promise<Route | null> {
    const row = await this.db
      .selectFrom('gameproxy_routes')
      .selectAll()
      .where('id', '=', routeId)
      .executeTakeFirst();
    if (row === undefined) return null;
    return {
      ...row,
      id: Number(row.id),
      user_id: Number(row.user_id),
      org_id: row.org_id === null ? null : Number(row.org_id),
    };
  }
}
