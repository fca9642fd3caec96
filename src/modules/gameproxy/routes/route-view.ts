import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { CustomDomainView } from '../custom-domains/custom-domains-service.ts';
import type { Route } from '../gameproxy-tables.ts';

/** A route as the API shows it: its row without the account, with its address and custom domain. */
export type RouteView = JsonView<Omit<Route, 'user_id'>> & {
  /** `<subdomain>.<base_domain>`: what players type. */
  address: string;
  custom_domain: CustomDomainView | null;
};

export const addressOf = (route: Pick<Route, 'subdomain' | 'base_domain'>): string =>
  `${route.subdomain}.${route.base_domain}`;

export function routeView(route: Route, customDomain: CustomDomainView | null): RouteView {
  return {
    id: route.id,
    subdomain: route.subdomain,
    base_domain: route.base_domain,
    address: addressOf(route),
    display_name: route.display_name,
    description: route.description,
    mode: route.mode,
    upstream_service_id: route.upstream_service_id,
    upstream_host: route.upstream_host,
    upstream_port: route.upstream_port,
    location_id: route.location_id,
    org_id: route.org_id,
    online_motd: route.online_motd,
    offline_motd: route.offline_motd,
    favicon: route.favicon,
    version_name: route.version_name,
    status_cache_ttl_seconds: route.status_cache_ttl_seconds,
    proxy_protocol: route.proxy_protocol,
    real_ip: route.real_ip,
    custom_domain: customDomain,
    created_at: new Date(route.created_at).toISOString(),
    updated_at: new Date(route.updated_at).toISOString(),
  };
}
