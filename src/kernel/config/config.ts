/** The validated, frozen configuration every role reads. Built once at start by loadConfig. */
export type Role = 'all' | 'api' | 'dns' | 'checker';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  readonly role: Role;
  readonly apiHost: string;
  readonly apiPort: number;
  readonly dnsHost: string;
  readonly dnsPort: number;
  /** PostgreSQL connection string; null → embedded PGlite under dataDir. */
  readonly databaseUrl: string | null;
  /** Redis URL; null → in-process bus. */
  readonly redisUrl: string | null;
  readonly dataDir: string;
  /** Location code of the PoP this node serves from. */
  readonly pop: string;
  /** Host names of the zones' name servers; the first is the SOA MNAME. */
  readonly nameservers: readonly string[];
  readonly geoipDb: string;
  readonly logLevel: LogLevel;
  /** HMAC key for access tokens; null → a key file kept in dataDir. */
  readonly authSecret: string | null;
  readonly accessTokenTtlS: number;
  readonly refreshTokenTtlS: number;
  readonly apiBodyLimitBytes: number;
  readonly trustProxy: boolean;
  readonly rrlRate: number;
  readonly rrlExempt: readonly string[];
  readonly healthAllowPrivateTargets: boolean;
  /** Seconds between two probes of a member: 60 in production; shorter only in tests. */
  readonly healthCheckIntervalS: number;
  /** Serve UDP through the batch addon (recvmmsg/sendmmsg) when it is built; false → node:dgram. */
  readonly dnsNativeUdp: boolean;
  /**
   * DNS server processes (node:cluster workers) of the dns role: 'auto' → one per core
   * (os.availableParallelism()); 0 → served in this process. Workers need DATABASE_URL and
   * REDIS_URL; without them the role serves in-process whatever this says.
   */
  readonly dnsWorkers: number | 'auto';
  /** AES-256-GCM key (32 bytes, base64) sealing DNSSEC private keys; null → a key file in dataDir. */
  readonly dnssecKeyEncryptionKey: string | null;
  /** Days between automatic ZSK rollovers. */
  readonly dnssecZskRollDays: number;
  /** Seconds between checks of the DNSSEC key schedule. */
  readonly dnssecKeyCheckIntervalS: number;
}
