import { defineConfigSection } from '../../kernel/config/config-section.ts';

/** An IPv4 pool instances of a location take their address from. */
export interface IpPool {
  /** A location code (`FRA`), or `*` for every location without a pool of its own. */
  readonly location: string;
  /** The network address as a 32-bit number, and its prefix length. */
  readonly network: number;
  readonly prefix: number;
  readonly gateway: string;
}

export interface ComputeSettings {
  /** Where instances' public addresses come from (COMPUTE_IPV4_POOLS). */
  readonly ipv4Pools: readonly IpPool[];
  /** The cloud-init user made in every instance (COMPUTE_CI_USER). */
  readonly ciUser: string;
  /** How long an install, rebuild, restore or backup task is waited for before it counts as failed. */
  readonly taskTimeoutMs: number;
  /**
   * COMPUTE_LOCAL: `auto` (default) runs a local PVE-shaped server on QEMU under DATA_DIR/compute
   * when no PVE_URL is set and `qemu-system-x86_64` is installed; `off` never does.
   */
  readonly local: 'auto' | 'off';
  /** Where the local QEMU guest's kernel and initramfs are built (COMPUTE_GUEST_DIR); null: DATA_DIR/compute/guest. */
  readonly guestDir: string | null;
}

const POOL_RE = /^([A-Z0-9]{2,8}|\*)=(\d{1,3}(?:\.\d{1,3}){3})\/(\d{1,2}),gw=(\d{1,3}(?:\.\d{1,3}){3})$/;

export function ipv4ToNumber(address: string): number | null {
  const parts = address.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return null;
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!;
}

export function numberToIpv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/**
 * `COMPUTE_IPV4_POOLS`: `;`-separated `<location>=<network>/<prefix>,gw=<gateway>` entries, e.g.
 * `FRA=203.0.113.0/24,gw=203.0.113.1;*=198.51.100.0/24,gw=198.51.100.1`. Default: one pool for
 * every location in TEST-NET-1 (RFC 5737), which suits the local PVE server and nothing public.
 */
export const computeConfig = defineConfigSection<ComputeSettings>('compute', (env) => {
  const text = env.str('COMPUTE_IPV4_POOLS', '*=192.0.2.0/24,gw=192.0.2.1');
  const pools: IpPool[] = [];
  for (const entry of text
    .split(';')
    .map((e) => e.trim())
    .filter((e) => e !== '')) {
    const m = POOL_RE.exec(entry);
    const network = m ? ipv4ToNumber(m[2]!) : null;
    const prefix = m ? Number(m[3]) : NaN;
    if (m === null || network === null || ipv4ToNumber(m[4]!) === null || prefix < 8 || prefix > 30) {
      env.problem(`COMPUTE_IPV4_POOLS: "${entry}" is not <location>=<network>/<prefix 8..30>,gw=<gateway>`);
      continue;
    }
    pools.push({ location: m[1]!, network, prefix, gateway: m[4]! });
  }
  const local = env.str('COMPUTE_LOCAL', 'auto');
  if (local !== 'auto' && local !== 'off') env.problem('COMPUTE_LOCAL: auto or off');
  const ciUser = env.str('COMPUTE_CI_USER', 'admin');
  if (!/^[a-z_][a-z0-9_-]{0,31}$/.test(ciUser)) env.problem('COMPUTE_CI_USER must be a POSIX user name');
  return {
    ipv4Pools: pools,
    ciUser,
    taskTimeoutMs: env.int('COMPUTE_TASK_TIMEOUT_S', 1800, 10, 86_400) * 1000,
    local: local === 'off' ? 'off' : 'auto',
    guestDir: env.optional('COMPUTE_GUEST_DIR'),
  };
});

// The provider's settings are read at start with the rest: this file is the module's settings door.
export { pveProviderConfig, type PveProviderSettings } from './provider/provider-config.ts';
