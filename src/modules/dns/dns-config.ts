import { hostname } from 'node:os';
import path from 'node:path';
import { locationByCode } from '../../geo/geo-data.ts';
import { DEFAULT_GEOIP_DB } from '../../geo/ip-locator.ts';
import { defineConfigSection } from '../../kernel/config/config-section.ts';
import { parseResolverAddress, systemResolver, type ResolverAddress } from './dnssec/parent-ds-lookup.ts';

/** Upper bound of DNS_WORKERS: more processes than this only cost memory. */
export const MAX_DNS_WORKERS = 256;

/**
 * The DNS module's settings: the data plane's listeners, the PoP it serves from, zones' name
 * servers, DNSSEC. (Health checks of load-balancing members: the load-balancing module's.)
 */
export interface DnsSettings {
  readonly dnsHost: string;
  readonly dnsPort: number;
  /** Location code of the PoP this node serves from. */
  readonly pop: string;
  /** Location codes of every PoP of this deployment (POP included), for the linter. */
  readonly deploymentPops: ReadonlySet<string>;
  /** Host names of the zones' name servers; the first is the SOA MNAME. */
  readonly nameservers: readonly string[];
  readonly geoipDb: string;
  /** Memory bound of each DNS process's UDP answer cache (and of its TCP one), bytes; 0: none (DNS_ANSWER_CACHE_MB). */
  readonly dnsAnswerCacheBytes: number;
  readonly rrlRate: number;
  readonly rrlExempt: readonly string[];
  /** Serve UDP through the batch addon (recvmmsg/sendmmsg) when it is built; false → node:dgram. */
  readonly dnsNativeUdp: boolean;
  /**
   * DNS server processes (node:cluster workers) of the dns role: 'auto' → one per core
   * (os.availableParallelism()); 0 → served in this process. Workers need DATABASE_URL and
   * REDIS_URL; without them the role serves in-process whatever this says.
   */
  readonly dnsWorkers: number | 'auto';
  /** Days between automatic ZSK rollovers. */
  readonly dnssecZskRollDays: number;
  /** Seconds between checks of the DNSSEC key schedule. */
  readonly dnssecKeyCheckIntervalS: number;
  /** Days between automatic KSK rollovers (RFC 7583 double-DS); 0 = only when asked for. */
  readonly dnssecKskRollDays: number;
  /** Where a KSK rollover asks for the parent's DS RRset (host:port); default the system resolver. */
  readonly dnssecParentResolver: ResolverAddress;
  /** NSID answered to queries that ask (RFC 5001): the host name by default, '' = off. */
  readonly dnsNsid: string;
  /** Answer and check DNS cookies (RFC 7873, RFC 9018). */
  readonly dnsCookies: boolean;
  /** 16-octet master secret of the server cookies (hex); null → a key file in DATA_DIR. */
  readonly dnsCookieSecret: string | null;
  /** Answered at id.server / hostname.bind in class CH (RFC 4892); '' = not answered. */
  readonly dnsIdentity: string;
  /** Answered at version.server / version.bind in class CH; '' = not answered. */
  readonly dnsVersion: string;
}

export const dnsConfig = defineConfigSection<DnsSettings>('dns', (env) => {
  const pop = env.str('POP', 'FRA').toUpperCase();
  if (!locationByCode(pop))
    env.problem(`POP must be a known location code (see geo/locations.json), got "${pop}"`);
  const otherPops = env.list('DEPLOYMENT_POPS', '').map((c) => c.toUpperCase());
  for (const code of otherPops)
    if (!locationByCode(code)) env.problem(`DEPLOYMENT_POPS: "${code}" is no known location code`);
  const deploymentPops = new Set([pop, ...otherPops]);
  const nameservers = env.hostnames('NAMESERVERS', 'ns1.example.net,ns2.example.net');
  if (nameservers.length === 0) env.problem('NAMESERVERS must list at least one host name');
  const nsid = env.orEmpty('DNS_NSID', hostname());
  if (Buffer.byteLength(nsid) > 512) env.problem('DNS_NSID must be at most 512 octets');
  const parentResolverText = env.optional('DNSSEC_PARENT_RESOLVER');
  const parentResolver =
    parentResolverText === null ? systemResolver() : parseResolverAddress(parentResolverText);
  if (parentResolver === null)
    env.problem(
      'DNSSEC_PARENT_RESOLVER must be an IP address with an optional port (127.0.0.1:53, [::1]:53)',
    );
  const cookieSecret = env.optional('DNS_COOKIE_SECRET');
  if (cookieSecret !== null && !/^[0-9a-f]{32}$/i.test(cookieSecret))
    env.problem('DNS_COOKIE_SECRET must be 16 octets in hex (32 hex digits)');
  return {
    dnsHost: env.host('DNS_HOST', '127.0.0.1'),
    dnsPort: env.int('DNS_PORT', 5300, 0, 65535),
    pop,
    deploymentPops,
    nameservers,
    geoipDb: path.resolve(env.str('GEOIP_DB', DEFAULT_GEOIP_DB)),
    rrlRate: env.int('RRL_RATE', 20, 0, 1_000_000),
    rrlExempt: env.cidrList('RRL_EXEMPT', '127.0.0.0/8,::1/128'),
    dnsNativeUdp: env.bool('DNS_NATIVE_UDP', true),
    dnsAnswerCacheBytes: env.int('DNS_ANSWER_CACHE_MB', 32, 0, 4096) * 1024 * 1024,
    dnsWorkers: env.countOrAuto('DNS_WORKERS', MAX_DNS_WORKERS),
    dnssecZskRollDays: env.int('DNSSEC_ZSK_ROLL_DAYS', 30, 1, 3650),
    dnssecKeyCheckIntervalS: env.int('DNSSEC_KEY_CHECK_INTERVAL_S', 60, 1, 86_400),
    dnssecKskRollDays: env.int('DNSSEC_KSK_ROLL_DAYS', 365, 0, 36_500),
    dnssecParentResolver: parentResolver ?? { host: '127.0.0.1', port: 53 },
    dnsNsid: nsid,
    dnsCookies: env.bool('DNS_COOKIES', true),
    dnsCookieSecret: cookieSecret,
    dnsIdentity: env.orEmpty('DNS_IDENTITY', ''),
    dnsVersion: env.orEmpty('DNS_VERSION', ''),
  };
});
