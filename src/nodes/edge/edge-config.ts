import { defineConfigSection } from '../../kernel/config/config-section.ts';

/** The edge role's settings: its listener, its limits per player, the load balancers it trusts. */
export interface EdgeNodeSettings {
  readonly edgeHost: string;
  readonly edgePort: number;
  /** Seconds a connection may stay silent before it is closed. */
  readonly idleTimeoutS: number;
  /** New connections a second per source network (IPv4 /24, IPv6 /64), and the bursts allowed. */
  readonly connRate: number;
  readonly connBurst: number;
  readonly maxConnsPerIp: number;
  /** Addresses or CIDR ranges of load balancers whose PROXY v2 header gives the player's address. */
  readonly trustedProxies: readonly string[];
  /** The server list's text for a name no route has. */
  readonly unknownText: string;
  /** How long the edge waits for an upstream's status or connection, ms. */
  readonly upstreamTimeoutMs: number;
  /** Whether the native listener (native/, when built) accepts and answers cached pings. */
  readonly native: boolean;
}

export const edgeConfig = defineConfigSection<EdgeNodeSettings>('edge', (env) => ({
  edgeHost: env.host('EDGE_HOST', '127.0.0.1'),
  edgePort: env.int('EDGE_PORT', 25565, 0, 65535),
  idleTimeoutS: env.int('EDGE_IDLE_TIMEOUT_S', 300, 1, 86_400),
  connRate: env.int('EDGE_CONN_RATE', 5, 1, 100_000),
  connBurst: env.int('EDGE_CONN_BURST', 10, 1, 100_000),
  maxConnsPerIp: env.int('EDGE_MAX_CONNS_PER_IP', 32, 1, 100_000),
  trustedProxies: env.cidrList('EDGE_TRUSTED_PROXIES', ''),
  unknownText: env.str('EDGE_UNKNOWN_TEXT', 'Unknown server address'),
  upstreamTimeoutMs: env.int('EDGE_UPSTREAM_TIMEOUT_MS', 5000, 100, 60_000),
  native: env.bool('EDGE_NATIVE', true),
}));
