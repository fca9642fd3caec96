import { MAX_DOMAIN_LENGTH, MAX_LABEL_LENGTH, toAsciiName } from './zone-domain.ts';

export type NameCheck = { ok: true; name: string } | { ok: false; reason: string };

const OWNER_LABEL = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?$|^[a-z0-9_]$/;

/**
 * A record name as a request gives it → its FQDN in stored form (lower case, no trailing dot).
 * `@` (or empty) is the apex; a name that ends in the zone's domain, with or without a trailing
 * dot, is taken as an FQDN; any other name is relative to the zone, unless it ends in a dot (an
 * absolute name outside the zone is refused rather than silently made relative). A `*` is allowed only as the
 * whole first label (RFC 4592 wildcard owner).
 */
export function resolveRecordName(input: string, domain: string): NameCheck {
  let name = input.trim();
  if (name === '@' || name === '' || name === '.') return { ok: true, name: domain };
  // A trailing dot makes the name absolute (RFC 1035 §5.1): it must then be inside the zone.
  const absolute = name.endsWith('.');
  name = name.replace(/\.$/, '');
  const ascii = toAsciiName(name);
  if (ascii === null) return { ok: false, reason: 'Name is not a valid internationalised name' };
  const inside = ascii === domain || ascii.endsWith(`.${domain}`);
  if (absolute && !inside) return { ok: false, reason: `Name must be inside the zone ${domain}` };
  const fqdn = inside ? ascii : `${ascii}.${domain}`;
  if (fqdn.length > MAX_DOMAIN_LENGTH)
    return { ok: false, reason: `Name must be at most ${MAX_DOMAIN_LENGTH} characters` };
  const labels = fqdn
    .slice(0, fqdn.length - domain.length)
    .split('.')
    .slice(0, -1);
  for (const [i, label] of labels.entries()) {
    if (label === '*' && i === 0) continue;
    if (label.length === 0) return { ok: false, reason: 'Name must not contain empty labels' };
    if (label.length > MAX_LABEL_LENGTH)
      return { ok: false, reason: `Each label must be at most ${MAX_LABEL_LENGTH} characters` };
    if (!OWNER_LABEL.test(label)) {
      return {
        ok: false,
        reason: `Label "${label}" may only hold letters, digits, hyphens and underscores ("*" only as the first label)`,
      };
    }
  }
  return { ok: true, name: fqdn };
}
