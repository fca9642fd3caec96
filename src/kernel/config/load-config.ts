import { isIP } from 'node:net';
import path from 'node:path';
import { DEFAULT_GEOIP_DB } from '../../geo/ip-locator.ts';
import { locationByCode } from '../../geo/geo-data.ts';
import type { Config, LogLevel, Role } from './config.ts';

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Upper bound of DNS_WORKERS: more processes than this only cost memory. */
export const MAX_DNS_WORKERS = 256;
const ROLES: readonly Role[] = ['all', 'api', 'dns', 'checker'];
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const HOSTNAME_RE =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads every setting from the environment, checks each one and reports every bad value at once
 * (one line per problem), so an operator fixes them in one round.
 */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const raw = (name: string): string | undefined => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  const str = (name: string, fallback: string): string => raw(name) ?? fallback;
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const v = raw(name);
    if (v === undefined) return fallback;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
      problems.push(`${name} must be an integer from ${min} to ${max}, got "${v}"`);
      return fallback;
    }
    return Number(v);
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const v = raw(name)?.toLowerCase();
    if (v === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(v)) return true;
    if (['0', 'false', 'no', 'off'].includes(v)) return false;
    problems.push(`${name} must be true or false, got "${v}"`);
    return fallback;
  };
  const oneOf = <T extends string>(name: string, values: readonly T[], fallback: T): T => {
    const v = raw(name)?.toLowerCase();
    if (v === undefined) return fallback;
    if ((values as readonly string[]).includes(v)) return v as T;
    problems.push(`${name} must be one of ${values.join(', ')}, got "${v}"`);
    return fallback;
  };
  const countOrAuto = (name: string, max: number): number | 'auto' => {
    const v = raw(name)?.toLowerCase();
    if (v === undefined || v === 'auto') return 'auto';
    if (!/^\d+$/.test(v) || Number(v) > max) {
      problems.push(`${name} must be "auto" or an integer from 0 to ${max}, got "${v}"`);
      return 'auto';
    }
    return Number(v);
  };
  const host = (name: string, fallback: string): string => {
    const v = str(name, fallback);
    if (isIP(v) === 0 && v !== 'localhost')
      problems.push(`${name} must be an IP address to listen on, got "${v}"`);
    return v;
  };
  const url = (name: string, protocols: readonly string[]): string | null => {
    const v = raw(name);
    if (v === undefined) return null;
    try {
      const u = new URL(v);
      if (!protocols.includes(u.protocol)) {
        problems.push(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
      }
    } catch {
      problems.push(`${name} is not a valid URL`);
    }
    return v;
  };

  const pop = str('POP', 'FRA').toUpperCase();
  if (!locationByCode(pop))
    problems.push(`POP must be a known location code (see geo/locations.json), got "${pop}"`);

  const nameservers = str('NAMESERVERS', 'ns1.example.net,ns2.example.net')
    .split(',')
    .map((n) => n.trim().toLowerCase().replace(/\.$/, ''))
    .filter((n) => n !== '');
  if (nameservers.length === 0) problems.push('NAMESERVERS must list at least one host name');
  for (const n of nameservers) {
    if (!HOSTNAME_RE.test(n)) problems.push(`NAMESERVERS entry "${n}" is not a valid host name`);
  }

  const rrlExempt = str('RRL_EXEMPT', '127.0.0.0/8,::1/128')
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  for (const c of rrlExempt) {
    const [addr, len] = c.split('/');
    const family = isIP(addr ?? '');
    const max = family === 6 ? 128 : 32;
    if (family === 0 || (len !== undefined && (!/^\d+$/.test(len) || Number(len) > max))) {
      problems.push(`RRL_EXEMPT entry "${c}" is not an address or CIDR range`);
    }
  }

  const authSecret = raw('AUTH_SECRET') ?? null;
  if (authSecret !== null && authSecret.length < 32)
    problems.push('AUTH_SECRET must be at least 32 characters');

  const dnssecKek = raw('DNSSEC_KEY_ENCRYPTION_KEY') ?? null;
  if (dnssecKek !== null && Buffer.from(dnssecKek, 'base64').length !== 32)
    problems.push('DNSSEC_KEY_ENCRYPTION_KEY must be 32 bytes in base64');

  const config: Config = {
    role: oneOf('ROLE', ROLES, 'all'),
    apiHost: host('API_HOST', '127.0.0.1'),
    apiPort: int('API_PORT', 8080, 0, 65535),
    dnsHost: host('DNS_HOST', '127.0.0.1'),
    dnsPort: int('DNS_PORT', 5300, 0, 65535),
    databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    dataDir: path.resolve(str('DATA_DIR', './data')),
    pop,
    nameservers,
    geoipDb: path.resolve(str('GEOIP_DB', DEFAULT_GEOIP_DB)),
    logLevel: oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    authSecret,
    accessTokenTtlS: int('ACCESS_TOKEN_TTL_S', 900, 30, 86_400),
    refreshTokenTtlS: int('REFRESH_TOKEN_TTL_S', 30 * 86_400, 300, 365 * 86_400),
    apiBodyLimitBytes: int('API_BODY_LIMIT_BYTES', 16 * 1024 * 1024, 1024, 256 * 1024 * 1024),
    trustProxy: bool('TRUST_PROXY', false),
    rrlRate: int('RRL_RATE', 20, 0, 1_000_000),
    rrlExempt,
    healthAllowPrivateTargets: bool('HEALTH_ALLOW_PRIVATE_TARGETS', false),
    healthCheckIntervalS: int('HEALTH_CHECK_INTERVAL_S', 60, 1, 3600),
    dnsNativeUdp: bool('DNS_NATIVE_UDP', true),
    dnsWorkers: countOrAuto('DNS_WORKERS', MAX_DNS_WORKERS),
    dnssecKeyEncryptionKey: dnssecKek,
    dnssecZskRollDays: int('DNSSEC_ZSK_ROLL_DAYS', 30, 1, 3650),
    dnssecKeyCheckIntervalS: int('DNSSEC_KEY_CHECK_INTERVAL_S', 60, 1, 86_400),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}
