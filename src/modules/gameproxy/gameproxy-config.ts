import { defineConfigSection } from '../../kernel/config/config-section.ts';

export interface GameproxySettings {
  /** Base domains routes are made under (`play.example.net`); the first is the default. */
  readonly baseDomains: readonly string[];
  /** Routes an account or organization may hold. */
  readonly maxRoutes: number;
  readonly allowCustomDomains: boolean;
  readonly allowProxyProtocol: boolean;
  /** Upstream hosts that resolve to private or reserved addresses are accepted (a lab, the tests). */
  readonly allowPrivateUpstreams: boolean;
  readonly statusCacheTtl: { readonly default: number; readonly min: number; readonly max: number };
  /** `host:port` of the resolver custom domains' CNAMEs are checked through; null → the system's. */
  readonly checkResolver: string | null;
  /** Memory a partner boost adds, and for how long. */
  readonly partnerBoostMb: number;
  readonly partnerBoostHours: number;
}

export const gameproxyConfig = defineConfigSection<GameproxySettings>('gameproxy', (env) => {
  const baseDomains = env.hostnames('GAMEPROXY_BASE_DOMAINS', 'play.localhost');
  const min = env.int('GAMEPROXY_STATUS_CACHE_TTL_MIN_S', 1, 0, 3600);
  const max = env.int('GAMEPROXY_STATUS_CACHE_TTL_MAX_S', 300, 1, 86_400);
  const def = env.int('GAMEPROXY_STATUS_CACHE_TTL_S', 10, 0, 86_400);
  if (min > max)
    env.problem('GAMEPROXY_STATUS_CACHE_TTL_MIN_S: larger than GAMEPROXY_STATUS_CACHE_TTL_MAX_S');
  if (def < min || def > max)
    env.problem('GAMEPROXY_STATUS_CACHE_TTL_S: outside GAMEPROXY_STATUS_CACHE_TTL_MIN_S..MAX_S');
  return {
    baseDomains,
    maxRoutes: env.int('GAMEPROXY_MAX_ROUTES', 10, 0, 10_000),
    allowCustomDomains: env.bool('GAMEPROXY_ALLOW_CUSTOM_DOMAINS', true),
    allowProxyProtocol: env.bool('GAMEPROXY_ALLOW_PROXY_PROTOCOL', true),
    allowPrivateUpstreams: env.bool('GAMEPROXY_ALLOW_PRIVATE_UPSTREAMS', false),
    statusCacheTtl: { default: def, min, max },
    checkResolver: env.optional('GAMEPROXY_CHECK_RESOLVER'),
    partnerBoostMb: env.int('PARTNER_BOOST_MB', 1024, 1, 1_048_576),
    partnerBoostHours: env.int('PARTNER_BOOST_HOURS', 24, 1, 24 * 365),
  };
});
