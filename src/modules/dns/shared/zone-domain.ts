import { domainToASCII } from 'node:url';
import { parse } from 'tldts';

/** RFC 1035 §2.3.4 limits on presentation names (text form, without the root dot). */
export const MAX_DOMAIN_LENGTH = 253;
export const MAX_LABEL_LENGTH = 63;
const ZONE_LABEL = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?$/;

export type DomainCheck = { ok: true; domain: string } | { ok: false; reason: string };

/** Turns IDN labels into A-labels (RFC 5891) and lower-cases; ASCII input is only lower-cased. */
export function toAsciiName(name: string): string | null {
  const lower = name.toLowerCase();
  // eslint-disable-next-line no-control-regex -- plain ASCII needs no IDNA processing
  if (/^[\x00-\x7f]*$/.test(lower)) return lower;
  const ascii = domainToASCII(lower);
  return ascii === '' ? null : ascii;
}

/**
 * A zone name as users may type it (trailing dot or not, any case, IDN) → the stored form, or why
 * it is not a zone name: at least two labels, each 1–63 octets of letters, digits, hyphens or
 * underscores, 253 octets in all. Reserved (.test) and reverse (in-addr.arpa) zones are valid.
 */
export function normaliseZoneDomain(input: string): DomainCheck {
  const trimmed = input.trim().replace(/\.$/, '');
  if (trimmed === '') return { ok: false, reason: 'Domain must not be empty' };
  const domain = toAsciiName(trimmed);
  if (domain === null) return { ok: false, reason: 'Domain is not a valid internationalised name' };
  if (domain.length > MAX_DOMAIN_LENGTH) {
    return { ok: false, reason: `Domain must be at most ${MAX_DOMAIN_LENGTH} characters` };
  }
  const labels = domain.split('.');
  if (labels.length < 2)
    return { ok: false, reason: 'Domain must have at least two labels (e.g. example.com)' };
  for (const label of labels) {
    if (label.length === 0) return { ok: false, reason: 'Domain must not contain empty labels' };
    if (label.length > MAX_LABEL_LENGTH) {
      return { ok: false, reason: `Each label must be at most ${MAX_LABEL_LENGTH} characters` };
    }
    if (!ZONE_LABEL.test(label)) {
      return { ok: false, reason: `Label "${label}" may only hold letters, digits and inner hyphens` };
    }
  }
  return { ok: true, domain };
}

/** The zone's SOA RNAME mailbox: as set, else hostmaster@<domain>. */
export function effectiveSoaEmail(zone: { soa_email: string | null; domain: string }): string {
  return zone.soa_email ?? `hostmaster@${zone.domain}`;
}

/**
 * Whether a stored zone name is itself an entry of the public suffix list (ICANN or private
 * section: co.uk, github.io, in-addr.arpa), where names are registered by many holders and none
 * may host the suffix. Names the list does not know (.example, .test) are no suffix.
 */
export function isPublicSuffix(domain: string): boolean {
  const parsed = parse(domain, { allowPrivateDomains: true, extractHostname: false });
  return (parsed.isIcann === true || parsed.isPrivate === true) && parsed.publicSuffix === domain;
}
