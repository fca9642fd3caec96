import { domainToASCII } from 'node:url';
import { getDomain } from 'tldts';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A name a certificate is requested for, as the routes take it. */
export interface CertificateName {
  /** As stored and addressed: `shop.example.com`, `*.example.com`. */
  readonly domain: string;
  readonly wildcard: boolean;
  /** The name without `*.`; a wildcard's own zone apex. */
  readonly base: string;
  /**
   * The names on the certificate: a wildcard also carries its base name (docs/certificates.md,
   * "Challenges").
   */
  readonly sans: readonly string[];
}

/** `domain` as a host name (IDN to A-labels, lower case, no trailing dot), optionally `*.`; null if not one. */
export function parseCertificateName(input: string): CertificateName | null {
  let text = input.trim().toLowerCase().replace(/\.$/, '');
  const wildcard = text.startsWith('*.');
  if (wildcard) text = text.slice(2);
  const ascii = domainToASCII(text);
  if (ascii === '' || ascii.length > 253 - (wildcard ? 2 : 0)) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l)) || /^\d+$/.test(labels.at(-1)!)) return null;
  const domain = wildcard ? `*.${ascii}` : ascii;
  return { domain, wildcard, base: ascii, sans: wildcard ? [domain, ascii] : [ascii] };
}

/**
 * The registered domain of a name by the Public Suffix List (`shop.example.co.uk` →
 * `example.co.uk`): what the 7-day issuance count is kept per, as CAs keep theirs.
 */
export function registeredDomainOf(name: string): string | null {
  return getDomain(name.replace(/^\*\./, ''), { allowPrivateDomains: false });
}

/** `_acme-challenge.<name>`: where a dns-01 TXT record goes (RFC 8555 §8.4). */
export function challengeRecordName(identifier: string): string {
  return `_acme-challenge.${identifier}`;
}
