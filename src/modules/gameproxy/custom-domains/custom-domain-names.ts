import { invalidField } from '../../../kernel/errors/app-error.ts';

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** Two labels or more, the last not all digits (a name, not an address). */
const DOMAIN_RE = new RegExp(`^(?:${LABEL}\\.)+(?=[a-z0-9-]*[a-z])${LABEL}$`);
/** One label or more (`play`, `mc.eu`). */
const SUBDOMAIN_RE = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const MAX_NAME = 253;

/** A custom domain as the caller named it, checked and lower-cased. */
export interface CustomDomainName {
  readonly domain: string;
  readonly subdomain: string | null;
  /** `subdomain.domain`, or the domain itself. */
  readonly fqdn: string;
}

const clean = (name: string): string => name.trim().toLowerCase().replace(/\.$/, '');

/** Whether `name` is `base` or a name under it. */
export const isAtOrUnder = (name: string, base: string): boolean =>
  name === base || name.endsWith(`.${base}`);

/**
 * The name players will type: `domain` (and `subdomain`) as host names, not at or under one of
 * the platform's base domains (those are the routes' own addresses). 422 naming the field.
 */
export function customDomainName(
  domain: string,
  subdomain: string | null | undefined,
  baseDomains: readonly string[],
): CustomDomainName {
  const d = clean(domain);
  if (!DOMAIN_RE.test(d) || d.length > MAX_NAME)
    throw invalidField(['body', 'domain'], 'must be a host name such as example.com', domain);
  const s =
    subdomain === null || subdomain === undefined || subdomain.trim() === '' ? null : clean(subdomain);
  if (s !== null && !SUBDOMAIN_RE.test(s))
    throw invalidField(
      ['body', 'subdomain'],
      'must be one or more labels of a-z, 0-9 and inner hyphens',
      subdomain,
    );
  const fqdn = s === null ? d : `${s}.${d}`;
  if (fqdn.length > MAX_NAME)
    throw invalidField(
      ['body', 'subdomain'],
      `subdomain.domain must be at most ${MAX_NAME} characters`,
      subdomain,
    );
  const base = baseDomains.find((b) => isAtOrUnder(fqdn, b));
  if (base !== undefined)
    throw invalidField(['body', 'domain'], `must not be ${base} or a name under it`, domain);
  return { domain: d, subdomain: s, fqdn };
}

/** Two names equal as DNS compares them: case and a trailing dot aside. */
export const sameName = (a: string, b: string): boolean => clean(a) === clean(b);
