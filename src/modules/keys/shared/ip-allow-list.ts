import { BlockList, isIP } from 'node:net';
import type { ValidationProblem } from '../../../kernel/errors/app-error.ts';

/**
 * An allow-list of addresses and CIDR ranges (IPv4 and IPv6), as keys carry them. Empty: every
 * address. Matching uses node's BlockList; an IPv4 client seen as IPv4-mapped IPv6 matches its IPv4
 * entries.
 */
export function entryProblems(
  entries: readonly string[],
  field: readonly (string | number)[],
): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  entries.forEach((entry, i) => {
    if (parseEntry(entry) === null) {
      problems.push({
        type: 'value_error',
        loc: [...field, i],
        msg: 'Value is not an IP address or CIDR range',
        input: entry,
        ctx: {},
      });
    }
  });
  return problems;
}

function parseEntry(entry: string): { address: string; family: 4 | 6; prefix: number | null } | null {
  const [address = '', prefix, extra] = entry.trim().split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return null;
  if (prefix === undefined) return { address, family: family as 4 | 6, prefix: null };
  const max = family === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > max) return null;
  return { address, family: family as 4 | 6, prefix: Number(prefix) };
}

/** Canonical form of each entry (trimmed), for storage. */
export function normaliseEntries(entries: readonly string[]): string[] {
  return entries.map((e) => e.trim());
}

export class IpAllowList {
  private readonly list = new BlockList();
  readonly empty: boolean;

  constructor(entries: readonly string[]) {
    this.empty = entries.length === 0;
    for (const entry of entries) {
      const e = parseEntry(entry);
      if (e === null) continue;
      const type = e.family === 4 ? 'ipv4' : 'ipv6';
      if (e.prefix === null) this.list.addAddress(e.address, type);
      else this.list.addSubnet(e.address, e.prefix, type);
    }
  }

  allows(ip: string): boolean {
    if (this.empty) return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
    if (mapped) return this.list.check(mapped[1]!, 'ipv4') || this.list.check(ip, 'ipv6');
    return this.list.check(ip, isIP(ip) === 6 ? 'ipv6' : 'ipv4');
  }
}
