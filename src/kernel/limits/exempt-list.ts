import { BlockList, isIP } from 'node:net';

/** An IPv4 dotted quad as an unsigned 32-bit number; null when `text` is not one. */
function ipv4Number(text: string): number | null {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46 /* . */) {
      if (digits === 0 || ++dots > 3) return null;
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57 && digits < 3) {
      octet = octet * 10 + (c - 48);
      digits++;
      if (octet > 255) return null;
    } else return null;
  }
  return dots === 3 && digits > 0 ? value * 256 + octet : null;
}

/**
 * The addresses the limits never touch (LIMITS_EXEMPT: addresses and CIDR ranges). Asked on every
 * API request, twice: IPv4 (and IPv4-mapped IPv6) is matched on numbers here, because
 * BlockList.check builds a SocketAddress per call; IPv6 goes to a BlockList.
 */
export class ExemptList {
  private readonly v4: { network: number; mask: number }[] = [];
  private readonly v6 = new BlockList();
  private hasV6 = false;

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address = '', prefix] = entry.split('/');
      const v4 = ipv4Number(address);
      if (v4 !== null) {
        const bits = prefix === undefined ? 32 : Number(prefix);
        const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
        this.v4.push({ network: (v4 & mask) >>> 0, mask });
      } else if (isIP(address) === 6) {
        if (prefix === undefined) this.v6.addAddress(address, 'ipv6');
        else this.v6.addSubnet(address, Number(prefix), 'ipv6');
        this.hasV6 = true;
      } else throw new Error(`LIMITS_EXEMPT: ${entry} is not an address or a CIDR range`);
    }
  }

  has(ip: string): boolean {
    const v4 = ipv4Number(ip.startsWith('::ffff:') ? ip.slice(7) : ip);
    if (v4 !== null) {
      for (const range of this.v4) if ((v4 & range.mask) >>> 0 === range.network) return true;
      return false;
    }
    return this.hasV6 && isIP(ip) === 6 && this.v6.check(ip, 'ipv6');
  }
}
