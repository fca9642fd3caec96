/**
 * Where a player's connection goes, by the name its client sent (cleaned: codec/host-name.ts).
 * Exact names first — `<subdomain>.<base_domain>` and verified custom domains — then wildcard
 * routes of a whole base domain, the longest matching suffix first. Lookups walk the name's label
 * boundaries from the longest suffix down, so the answer never depends on insertion or map order.
 */

export interface EdgeUpstream {
  readonly host: string;
  readonly port: number;
}

/** A route as the edge holds it (the control plane's route, flattened for the data plane). */
export interface EdgeRoute {
  readonly id: number;
  /** `proxy`: players join through it; `status_only`: the server list only, logins refused. */
  readonly mode: 'proxy' | 'status_only';
  readonly upstream: EdgeUpstream | null;
  readonly proxyProtocol: boolean;
  readonly realIp: boolean;
  readonly onlineMotd: string | null;
  readonly offlineMotd: string | null;
  readonly versionName: string | null;
  /** A `data:image/png;base64,...` icon, or null. */
  readonly favicon: string | null;
  readonly statusCacheTtlSeconds: number;
}

/** Names a route answers: exact ones, and base domains it takes every name under. */
export interface RouteNames {
  readonly exact: readonly string[];
  readonly wildcard: readonly string[];
}

export class RouteTable {
  private readonly exact = new Map<string, EdgeRoute>();
  private readonly wildcard = new Map<string, EdgeRoute>();
  /** Routes held (the `edge_route_table_routes` gauge), whether or not a name of theirs was taken. */
  readonly size: number;
  private readonly routeIds: readonly number[];

  /** Routes with their names; a name claimed twice goes to the lower route id (deterministic). */
  constructor(entries: readonly { readonly route: EdgeRoute; readonly names: RouteNames }[]) {
    this.size = entries.length;
    this.routeIds = entries.map((e) => e.route.id);
    const ordered = [...entries].sort((a, b) => a.route.id - b.route.id);
    for (const { route, names } of ordered) {
      for (const n of names.exact) if (!this.exact.has(n)) this.exact.set(n, route);
      for (const n of names.wildcard) if (!this.wildcard.has(n)) this.wildcard.set(n, route);
    }
  }

  /** Ids of the routes held. */
  ids(): number[] {
    return [...this.routeIds];
  }

  /** The route of a cleaned host name, or null. */
  find(host: string): EdgeRoute | null {
    const exact = this.exact.get(host);
    if (exact !== undefined) return exact;
    if (this.wildcard.size === 0) return null;
    // Suffixes below the first label, longest first: a.b.example.net → b.example.net, example.net, net.
    for (let dot = host.indexOf('.'); dot !== -1; dot = host.indexOf('.', dot + 1)) {
      const route = this.wildcard.get(host.slice(dot + 1));
      if (route !== undefined) return route;
    }
    return null;
  }
}
