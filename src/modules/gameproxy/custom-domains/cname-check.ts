import { Resolver } from 'node:dns/promises';
import { sameName } from './custom-domain-names.ts';

/** What a lookup of the fqdn's CNAME found: the target, or why there is none to compare. */
export type CnameFinding =
  { readonly kind: 'match' } | { readonly kind: 'mismatch'; readonly message: string };

/** A check of one name's CNAME (a resolver, or a fake one in unit tests). */
export type CnameCheck = (fqdn: string, expected: string) => Promise<CnameFinding>;

const LOOKUP_TIMEOUT_MS = 2000;
const LOOKUP_TRIES = 2;

/** Why a lookup found nothing, in the words a user fixing their DNS needs. */
function lookupFailure(fqdn: string, code: string | undefined): string {
  switch (code) {
    case 'ENODATA':
      return `No CNAME record at ${fqdn}`;
    case 'ENOTFOUND':
      return `${fqdn} does not exist (NXDOMAIN)`;
    case 'ETIMEOUT':
    case 'ECONNREFUSED':
      return `The DNS lookup of ${fqdn} got no answer`;
    default:
      return `The DNS lookup of ${fqdn} failed (${code ?? 'unknown error'})`;
  }
}

/**
 * Looks up the CNAME of a name through `server` (`host:port`, as GAMEPROXY_CHECK_RESOLVER names
 * it), or the system's resolvers when null; a match is a CNAME whose target is `expected`.
 */
export function resolverCnameCheck(server: string | null): CnameCheck {
  return async (fqdn, expected) => {
    const resolver = new Resolver({ timeout: LOOKUP_TIMEOUT_MS, tries: LOOKUP_TRIES });
    if (server !== null) resolver.setServers([server]);
    let targets: string[];
    try {
      targets = await resolver.resolveCname(fqdn);
    } catch (error) {
      return { kind: 'mismatch', message: lookupFailure(fqdn, (error as { code?: string }).code) };
    }
    if (targets.some((t) => sameName(t, expected))) return { kind: 'match' };
    if (targets.length === 0) return { kind: 'mismatch', message: lookupFailure(fqdn, 'ENODATA') };
    return {
      kind: 'mismatch',
      message: `The CNAME at ${fqdn} points at ${targets.join(', ')}, not ${expected}`,
    };
  };
}
