import type { Kysely } from 'kysely';
import type { CustomDomainStatus, GameproxyTables, RouteRow } from '../gameproxy-tables.ts';

/** A route's row as edge nodes load it, with its custom domain's name and status when it has one. */
export type PublishedRouteRow = Omit<
  RouteRow,
  'id' | 'user_id' | 'org_id' | 'display_name' | 'description' | 'location_id' | 'created_at' | 'updated_at'
> & {
  readonly id: number;
  readonly custom_fqdn: string | null;
  readonly custom_status: CustomDomainStatus | null;
};

/** The routes edge nodes load: every one, in one read. */
export class RoutePublishingRepository {
  constructor(private readonly db: Kysely<GameproxyTables>) {}

  async allRoutes(): Promise<PublishedRouteRow[]> {
    const rows = await this.db
      .selectFrom('gameproxy_routes as r')
      .leftJoin('gameproxy_custom_domains as d', 'd.route_id', 'r.id')
      .select([
        'r.id',
        'r.subdomain',
        'r.base_domain',
        'r.mode',
        'r.upstream_service_id',
        'r.upstream_host',
        'r.upstream_port',
        'r.online_motd',
        'r.offline_motd',
        'r.favicon',
        'r.version_name',
        'r.status_cache_ttl_seconds',
        'r.proxy_protocol',
        'r.real_ip',
        'd.fqdn as custom_fqdn',
        'd.status as custom_status',
      ])
      .orderBy('r.id')
      .execute();
    // bigint columns come back as text from PostgreSQL.
    return rows.map((r) => ({
      ...r,
      id: Number(r.id),
      upstream_service_id: r.upstream_service_id === null ? null : Number(r.upstream_service_id),
    }));
  }
}
