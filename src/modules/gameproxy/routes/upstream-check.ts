import { lookup } from 'node:dns/promises';
import { classifyAddress, isAllowedTarget, parseAddress } from '../../../net/address-class.ts';

/** Every address a host name resolves to (node:dns lookup by default; tests give their own). */
export type HostLookup = (hostname: string) => Promise<string[]>;

export const systemLookup: HostLookup = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** How long the check waits for a name to resolve. */
const LOOKUP_TIMEOUT_MS = 5_000;

/** A host name: dot-separated labels of a-z, 0-9 and inner hyphens, 253 characters at most. */
const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** What an upstream host is, once checked: its stored text, or why it is refused. */
export type UpstreamHostCheck = { readonly host: string } | { readonly refused: string };

/**
 * Judges an upstream host as the edge would connect to it: an IP literal by its own class, a name
 * by every address it resolves to now (the one address classifier, src/net/address-class.ts).
 * Private and loopback addresses pass only with `allowPrivate`; reserved ones never. A name that
 * does not resolve is refused: the edge would have nowhere to connect.
 */
export async function checkUpstreamHost(
  input: string,
  allowPrivate: boolean,
  resolve: HostLookup,
): Promise<UpstreamHostCheck> {
  const text = input.trim().toLowerCase().replace(/\.$/, '');
  const literal = parseAddress(text.replace(/^\[(.*)\]$/, '$1'));
  if (literal !== null) {
    const cls = classifyAddress(literal.canonical)!;
    return isAllowedTarget(cls, allowPrivate)
      ? { host: literal.canonical }
      : { refused: `${literal.canonical} is a ${cls} address` };
  }
  if (!HOSTNAME.test(text)) return { refused: 'Not a host name or IP address' };
  const addresses = await withTimeout(resolve(text)).catch(() => null);
  if (addresses === null || addresses.length === 0) return { refused: `${text} does not resolve` };
  const forbidden = addresses.filter((a) => {
    const cls = classifyAddress(a);
    return cls === null || !isAllowedTarget(cls, allowPrivate);
  });
  return forbidden.length === 0
    ? { host: text }
    : { refused: `${text} resolves to a private or reserved address (${forbidden.join(', ')})` };
}

async function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('lookup timed out')), LOOKUP_TIMEOUT_MS);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
