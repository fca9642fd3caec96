import { RESERVED_SUBDOMAINS } from './reserved-subdomains.ts';

/** Why a subdomain cannot be taken, or null when it can (availability's `reason`, taken aside). */
export type SubdomainProblem = 'invalid' | 'reserved' | null;

/** 3 to 32 characters of `a-z0-9-`, no leading or trailing hyphen (input lower-cased first). */
const SUBDOMAIN = /^(?!-)[a-z0-9-]{3,32}(?<!-)$/;

export const SUBDOMAIN_RULE = 'A subdomain is 3 to 32 characters of a-z, 0-9 and inner hyphens';

export function checkSubdomain(subdomain: string): SubdomainProblem {
  // Reserved first: `mc` is shorter than any subdomain, and still the answer is that it is kept.
  if (RESERVED_SUBDOMAINS.has(subdomain)) return 'reserved';
  if (!SUBDOMAIN.test(subdomain)) return 'invalid';
  // `xn--` labels are punycode of other names; `--` in third and fourth place is kept for them.
  if (subdomain.slice(2, 4) === '--') return 'invalid';
  return null;
}

/** How a subdomain is compared and stored: trimmed, lower case. */
export const normalSubdomain = (input: string): string => input.trim().toLowerCase();
