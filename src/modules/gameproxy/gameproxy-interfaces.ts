import type { Unsubscribe } from '../../kernel/events/domain-events.ts';
import type { RouteMode } from './gameproxy-tables.ts';

/** A route as an edge node needs it: where it goes, what the server list shows, its names. */
export interface PublishedGameRoute {
  readonly id: number;
  readonly mode: RouteMode;
  /** The upstream's address, or null (a service upstream whose address is not known yet). */
  readonly upstreamHost: string | null;
  readonly upstreamPort: number | null;
  readonly proxyProtocol: boolean;
  readonly realIp: boolean;
  readonly onlineMotd: string | null;
  readonly offlineMotd: string | null;
  readonly versionName: string | null;
  readonly favicon: string | null;
  readonly statusCacheTtlSeconds: number;
  /** `<subdomain>.<base_domain>` and the verified custom domain's fqdn. */
  readonly exact: readonly string[];
  /** Names every name under which this route takes (its own address: `mc.<sub>.<base>` goes to it too). */
  readonly wildcard: readonly string[];
}

/** What an edge node reads: every route, and word when they change. */
export interface GameproxyPublishing {
  routes(): Promise<PublishedGameRoute[]>;
  onRoutesChanged(handler: (routeIds: readonly number[]) => void): Promise<Unsubscribe>;
}
