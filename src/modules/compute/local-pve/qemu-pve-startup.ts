/**
 * The local cluster `npm start` runs when no `PVE_URL` is set and QEMU is installed: the PVE-shaped
 * server on 127.0.0.1 with the QEMU engine, its files under `<DATA_DIR>/compute/` (disks, backup
 * archives, ISO images, the guest), one template VM per OS template. The adapter is pointed at it
 * with the settings answered here. Without QEMU, or when the guest cannot be built, it answers
 * null and why (VPS products are then not orderable: `not_configured`).
 */
import path from 'node:path';
import type { PveProviderSettings } from '../provider/provider-config.ts';
import { ensureGuestImage } from './guest-image.ts';
import { startLocalPve, type LocalPve, type LocalPveTemplate } from './pve-server.ts';
import { findQemuBinaries, QemuEngine } from './qemu-engine.ts';

export interface LocalQemuPveOptions {
  /** The product's DATA_DIR: the cluster lives in `<dataDir>/compute/`. */
  readonly dataDir: string;
  /** Template VMs to have (made once, kept across starts), e.g. one per OS template. */
  readonly templates: readonly LocalPveTemplate[];
  /** Node name (default `pve1`). */
  readonly node?: string;
  /** Where the guest kernel and initramfs are (default `<dataDir>/compute/guest`). */
  readonly guestDir?: string;
}

export interface LocalQemuPve {
  /** What the PVE adapter is built with (`new PveProvider(settings)`). */
  readonly settings: PveProviderSettings;
  readonly pve: LocalPve;
  readonly dir: string;
  close(): Promise<void>;
}

export type LocalQemuPveStart =
  { readonly ok: true; readonly cluster: LocalQemuPve } | { readonly ok: false; readonly reason: string };

export async function startLocalQemuPve(opts: LocalQemuPveOptions): Promise<LocalQemuPveStart> {
  const binaries = findQemuBinaries();
  if (binaries === null) {
    return {
      ok: false,
      reason: 'QEMU is not installed: apt-get install qemu-system-x86 qemu-utils busybox-static zstd lzop',
    };
  }
  const dir = path.resolve(opts.dataDir, 'compute');
  const guestDir = opts.guestDir ?? path.join(dir, 'guest');
  let guest;
  try {
    guest = await ensureGuestImage(guestDir);
  } catch (err) {
    return {
      ok: false,
      reason: `the QEMU guest could not be built in ${guestDir}: ${(err as Error).message}`,
    };
  }
  const engine = new QemuEngine({ dir, guest, binaries });
  let pve: LocalPve;
  try {
    pve = await startLocalPve({
      engine,
      dataDir: dir,
      nodes: [opts.node ?? 'pve1'],
      templates: opts.templates,
      // The product's VMs outlive a restart of the product (their disks are under dir already).
      persist: true,
    });
  } catch (err) {
    await engine.close();
    throw err;
  }
  return {
    ok: true,
    cluster: {
      settings: {
        url: pve.url,
        tokenId: pve.tokenId,
        tokenSecret: pve.tokenSecret,
        caFile: null,
        storage: null,
        backupStorage: 'local',
        isoStorage: 'local',
        nodes: [],
      },
      pve,
      dir,
      async close() {
        await pve.close();
        await engine.close();
      },
    },
  };
}

/** One template VM per OS template that names one (its vmid on `node`, or its only one), sized by its minimums. */
export function localTemplates(
  osTemplates: readonly {
    readonly slug: string;
    readonly min_memory_mb: number;
    readonly min_disk_gb: number;
    readonly pve_template_vmid: number | Readonly<Record<string, number>> | null;
  }[],
  node = 'pve1',
): LocalPveTemplate[] {
  const out = new Map<number, LocalPveTemplate>();
  for (const t of osTemplates) {
    const v = t.pve_template_vmid;
    const vmid = v === null ? undefined : typeof v === 'number' ? v : (v[node] ?? Object.values(v)[0]);
    if (vmid === undefined || out.has(vmid)) continue;
    out.set(vmid, { vmid, name: t.slug, node, diskGb: t.min_disk_gb, memoryMb: t.min_memory_mb });
  }
  return [...out.values()];
}
