/**
 * The local cluster of `npm start` without PVE_URL: the PVE-shaped server on the QEMU engine
 * under `<DATA_DIR>/compute/`, its templates kept across starts, reached by the PVE adapter.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PveProvider } from '../provider/pve-provider.ts';
import { guestImageDir } from './guest-image.ts';
import { localTemplates, startLocalQemuPve } from './qemu-pve-startup.ts';

let dataDir: string | undefined;

afterAll(async () => {
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
});

describe('startLocalQemuPve', () => {
  it('starts the server with one template per OS template, kept across starts', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'qemu-pve-startup-'));
    const templates = [
      { vmid: 9000, name: 'debian-12', diskGb: 10 },
      { vmid: 9001, name: 'alpine-3.20', diskGb: 5 },
    ];
    for (let run = 0; run < 2; run++) {
      const started = await startLocalQemuPve({ dataDir, templates, guestDir: guestImageDir() });
      if (!started.ok) throw new Error(started.reason);
      const { cluster } = started;
      const provider = new PveProvider(cluster.settings);
      try {
        const vms = await provider.listVms('pve1');
        expect(
          vms
            .filter((v) => v.template)
            .map((v) => v.vmid)
            .sort(),
        ).toEqual([9000, 9001]);
        expect(existsSync(path.join(dataDir, 'compute', 'images', '9000', 'vm-9000-disk-0.qcow2'))).toBe(
          true,
        );
      } finally {
        await provider.close();
        await cluster.close();
      }
    }
  }, 120_000);

  it('makes one template per OS template that names a vmid, sized by its minimums', () => {
    const os = (slug: string, vmid: number | Record<string, number> | null) => ({
      slug,
      min_memory_mb: 512,
      min_disk_gb: 10,
      pve_template_vmid: vmid,
    });
    expect(
      localTemplates([
        os('debian-12', 9001),
        os('rocky-9', { pve2: 9103, pve1: 9003 }),
        os('windows-2022', null),
        os('debian-12-copy', 9001),
      ]),
    ).toEqual([
      { vmid: 9001, name: 'debian-12', node: 'pve1', diskGb: 10, memoryMb: 512 },
      { vmid: 9003, name: 'rocky-9', node: 'pve1', diskGb: 10, memoryMb: 512 },
    ]);
  });
});
