import path from 'node:path';
import type { Config, CoreConfig, LogLevel, Role } from './config.ts';
import type { ConfigSection } from './config-section.ts';
import { EnvReader, type Env } from './env-reader.ts';

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const ROLES: readonly Role[] = ['all', 'api', 'dns', 'edge', 'checker', 'worker'];
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function schemaName(env: EnvReader): string | null {
  const v = env.optional('DATABASE_SCHEMA');
  if (v !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(v))
    env.problem(`DATABASE_SCHEMA must be a lower-case SQL identifier, got "${v}"`);
  return v;
}

function busPrefix(env: EnvReader): string {
  const v = env.orEmpty('BUS_PREFIX', '');
  if (!/^[A-Za-z0-9:_.-]{0,64}$/.test(v))
    env.problem(`BUS_PREFIX must be at most 64 letters, digits, ":", "_", "." or "-", got "${v}"`);
  return v;
}

/** Only a secret or restricted key charges; a publishable key (`pk_…`) is refused (not echoed). */
function stripeSecretKey(env: EnvReader): string | null {
  const v = env.optional('STRIPE_SECRET_KEY');
  if (v !== null && !/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/.test(v))
    env.problem('STRIPE_SECRET_KEY must be a secret (sk_…) or restricted (rk_…) key');
  return v;
}

function readCore(env: EnvReader): CoreConfig {
  const authSecret = env.optional('AUTH_SECRET');
  if (authSecret !== null && authSecret.length < 32)
    env.problem('AUTH_SECRET must be at least 32 characters');
  const sealingKey = env.key32('SEALING_KEY');
  // Its name in the first release, when only DNSSEC keys were sealed.
  const formerSealingKey = env.key32('DNSSEC_KEY_ENCRYPTION_KEY');
  if (sealingKey !== null && formerSealingKey !== null && sealingKey !== formerSealingKey) {
    env.problem('SEALING_KEY and DNSSEC_KEY_ENCRYPTION_KEY (its former name) differ; set one');
  }
  return {
    role: env.oneOf('ROLE', ROLES, 'all'),
    apiHost: env.host('API_HOST', '127.0.0.1'),
    apiPort: env.int('API_PORT', 8080, 0, 65535),
    databaseUrl: env.url('DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: env.url('REDIS_URL', ['redis:', 'rediss:']),
    databaseSchema: schemaName(env),
    busPrefix: busPrefix(env),
    dataDir: path.resolve(env.str('DATA_DIR', './data')),
    logLevel: env.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    authSecret,
    accessTokenTtlS: env.int('ACCESS_TOKEN_TTL_S', 900, 30, 86_400),
    refreshTokenTtlS: env.int('REFRESH_TOKEN_TTL_S', 30 * 86_400, 300, 365 * 86_400),
    apiBodyLimitBytes: env.int('API_BODY_LIMIT_BYTES', 16 * 1024 * 1024, 1024, 256 * 1024 * 1024),
    trustProxy: env.bool('TRUST_PROXY', false),
    proxyLimits: env.bool('PROXY_LIMITS', true),
    limitsExempt: env.cidrList('LIMITS_EXEMPT', ''),
    sealingKey: sealingKey ?? formerSealingKey,
    smtpUrl: env.url('SMTP_URL', ['smtp:', 'smtps:']),
    outboundAllowPrivateTargets: env.bool('OUTBOUND_ALLOW_PRIVATE_TARGETS', false),
    outboundAllowHttp: env.bool('OUTBOUND_ALLOW_HTTP', false),
    outboundCaFile: env.optional('OUTBOUND_CA_FILE'),
    mailFrom: env.str('MAIL_FROM', 'Hosting Platform <no-reply@localhost>'),
    publicWebUrl: env.url('PUBLIC_WEB_URL', ['http:', 'https:'])?.replace(/\/$/, '') ?? null,
    stripeApiBaseUrl: env.url('STRIPE_API_BASE_URL', ['http:', 'https:'])?.replace(/\/$/, '') ?? null,
    stripeSecretKey: stripeSecretKey(env),
    stripeWebhookSecret: env.optional('STRIPE_WEBHOOK_SECRET'),
  };
}

/**
 * Reads the kernel's settings and every module section from the environment, checks each value
 * and reports every bad one at once (one line per problem). The result is frozen.
 */
export function loadConfig(
  envSource: Env = process.env,
  sections: readonly ConfigSection<unknown>[] = [],
): Config {
  const env = new EnvReader(envSource);
  const core = readCore(env);
  const values = new Map<ConfigSection<unknown>, unknown>();
  for (const section of sections) values.set(section, Object.freeze(section.read(env)));
  if (env.problems.length > 0) throw new ConfigError(env.problems);
  // DNS workers get these settings; they need neither key.
  const seen = Object.fromEntries(
    [...env.seen].filter(
      ([name]) => name !== 'AUTH_SECRET' && name !== 'STRIPE_SECRET_KEY' && name !== 'STRIPE_WEBHOOK_SECRET',
    ),
  );
  const config: Config = {
    ...core,
    env: Object.freeze(seen),
    section<T>(section: ConfigSection<T>): T {
      if (!values.has(section)) throw new Error(`configuration section ${section.name} was not loaded`);
      return values.get(section) as T;
    },
  };
  return Object.freeze(config);
}
