import { ipv4ToNumber, numberToIpv4, type IpPool } from '../compute-config.ts';

/**
 * IPv4 allocation: each instance takes the lowest free address of its location's pool
 * (COMPUTE_IPV4_POOLS; the `*` pool for a location without one), skipping the network address,
 * the gateway and the broadcast address; a terminated instance gives its address back. The
 * address is unique across instances (a UNIQUE column), so two orders never share one.
 */
export interface Ipv4Lease {
  readonly address: string;
  readonly prefix: number;
  readonly gateway: string;
}

export function poolFor(pools: readonly IpPool[], location: string | null): IpPool | null {
  return pools.find((p) => p.location === location) ?? pools.find((p) => p.location === '*') ?? null;
}

export function nextFreeIpv4(pool: IpPool, inUse: ReadonlySet<string>): Ipv4Lease | null {
  const size = 2 ** (32 - pool.prefix);
  const gateway = ipv4ToNumber(pool.gateway);
  for (let i = 1; i < size - 1; i++) {
    const n = pool.network + i;
    if (n === gateway) continue;
    const address = numberToIpv4(n);
    if (!inUse.has(address)) return { address, prefix: pool.prefix, gateway: pool.gateway };
  }
  return null;
}

/** PVE's `ipconfig0` for a lease (`ip=<cidr>,gw=<gateway>`). */
export function ipconfigOf(lease: { address: string; prefix: number; gateway: string } | null): string {
  return lease === null ? 'ip=dhcp' : `ip=${lease.address}/${lease.prefix},gw=${lease.gateway}`;
}
