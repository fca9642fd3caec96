import type { ConfigSection } from './config-section.ts';

/** The validated, frozen configuration every role reads. Built once at start by loadConfig. */
export type Role = 'all' | 'api' | 'dns' | 'edge' | 'checker' | 'worker';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** The kernel's own settings; each module adds a section of its own (config-section.ts). */
export interface CoreConfig {
  readonly role: Role;
  readonly apiHost: string;
  readonly apiPort: number;
  /** PostgreSQL connection string; null → embedded PGlite under dataDir. */
  readonly databaseUrl: string | null;
  /** PostgreSQL schema the tables live in (created when missing); null → the server's default. */
  readonly databaseSchema: string | null;
  /** Redis URL; null → in-process bus. */
  readonly redisUrl: string | null;
  /**
   * Put before every Redis key and channel of this deployment ('' by default): deployments (or
   * test runs) sharing one Redis never hear each other's events nor share counters and locks.
   */
  readonly busPrefix: string;
  readonly dataDir: string;
  readonly logLevel: LogLevel;
  /** HMAC key for access tokens; null → a key file kept in dataDir. */
  readonly authSecret: string | null;
  readonly accessTokenTtlS: number;
  readonly refreshTokenTtlS: number;
  readonly apiBodyLimitBytes: number;
  readonly trustProxy: boolean;
  /**
   * The proxy-level request and connection limits (docs/keys-and-limits.md, "Limits"): on, unless a
   * test or a proxy in front does it.
   */
  readonly proxyLimits: boolean;
  /** Addresses (CIDR) no per-IP limit applies to (benchmarks). */
  readonly limitsExempt: readonly string[];
  /** AES-256-GCM key (32 bytes, base64) sealing secrets at rest; null → a key file in dataDir. */
  readonly sealingKey: string | null;
  /** Transactional mail over SMTP (`smtp://host:port`); null → .eml files under dataDir/mail. */
  readonly smtpUrl: string | null;
  /** Sender of transactional mail. */
  readonly mailFrom: string;
  /** Tests only: outbound requests (webhooks) may reach private and loopback addresses. */
  readonly outboundAllowPrivateTargets: boolean;
  /** Tests only: outbound requests may use plain http://. */
  readonly outboundAllowHttp: boolean;
  /** Tests only: a CA file outbound TLS trusts besides the system's. */
  readonly outboundCaFile: string | null;
  /**
   * Base URL of the site users open links of transactional mail at (password reset); null: this
   * API's own pages (identity serves the reset page).
   */
  readonly publicWebUrl: string | null;
  /** Stripe secret (`sk_…`) or restricted (`rk_…`) key of the `stripe` payment adapter; null: none. */
  readonly stripeSecretKey: string | null;
  /** `whsec_…`: the signing secret of Stripe's webhook endpoint (`Stripe-Signature`); null: none. */
  readonly stripeWebhookSecret: string | null;
  /** Base URL of Stripe's API (a local server in tests); null: https://api.stripe.com. */
  readonly stripeApiBaseUrl: string | null;
}

export interface Config extends CoreConfig {
  /** A module's section, as validated at start; asking for a section not loaded is a bug. */
  section<T>(section: ConfigSection<T>): T;
  /**
   * The variables read, as given (the token key left out): DNS workers load the same
   * configuration from them.
   */
  readonly env: Readonly<Record<string, string>>;
}
