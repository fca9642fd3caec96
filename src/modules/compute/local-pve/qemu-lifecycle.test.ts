/**
 * A VPS's life on real QEMU, through the production PVE adapter against the local PVE-shaped
 * server running the QEMU engine: a trial instance (256 MiB, 1 vCPU, 2 GB) cloned from a template
 * and booted, an ACPI shutdown the guest acts on, a snapshot with RAM rolled back to the running
 * state, a zstd backup restored, a rescue ISO put in and taken out, a rebuild that wipes the disk.
 * Needs `qemu-system-x86 qemu-utils busybox-static zstd` and the cloud kernel package
 * (guest-image.ts); without them the suite fails.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedTask, VmConfigChange } from '../provider/compute-provider.ts';
import { PveProvider } from '../provider/pve-provider.ts';
import { ensureGuestImage, GUEST_READY_LINE, guestImageDir } from './guest-image.ts';
import { QemuEngine } from './qemu-engine.ts';
import { startLocalPve, type LocalPve } from './pve-server.ts';

const execFileP = promisify(execFile);
const NODE = 'pve1';
const TEMPLATE = 9000;
const BOOT_TIMEOUT_MS = 60_000;
const TASK_TIMEOUT_MS = 90_000;
const MARKER_OFFSET = 1024 * 1024;
const ISO = 'rescue-test.iso';

let dir: string;
let engine: QemuEngine;
let pve: LocalPve;
let provider: PveProvider;
let vmid: number;
const timings: [string, number][] = [];

async function timed<T>(what: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await fn();
  } finally {
    timings.push([what, Math.round(performance.now() - t0)]);
  }
}

const wait = (task: Promise<StartedTask>) => task.then((t) => provider.waitTask(t, TASK_TIMEOUT_MS));

/** A config change, its task (PVE's POST config answers one) awaited. */
async function configure(change: VmConfigChange): Promise<void> {
  const task = await provider.updateVmConfig(NODE, vmid, change);
  if (task !== null) await provider.waitTask(task, TASK_TIMEOUT_MS);
}

/** Writes (`write`) or checks (`read`) a byte pattern at 1 MiB of the disk with qemu-io. */
async function marker(op: 'write' | 'read' | 'erase'): Promise<boolean> {
  const pattern = op === 'erase' ? 0 : 0x5a;
  const cmd = `${op === 'read' ? 'read' : 'write'} -P ${pattern} ${MARKER_OFFSET} 4k`;
  const out = await execFileP('qemu-io', ['-f', 'qcow2', '-c', cmd, engine.diskPath(vmid)]).catch(
    (err: { stdout?: string; stderr?: string }) => ({ stdout: `${err.stdout ?? ''}${err.stderr ?? ''}` }),
  );
  if (/Pattern verification failed/.test(out.stdout)) return false;
  if (!/(read|wrote) 4096\/4096 bytes/.test(out.stdout)) throw new Error(`qemu-io: ${out.stdout}`);
  return true;
}

/** Starts the VM through the API and waits for the guest's ready line; answers the boot's ms. */
async function boot(): Promise<void> {
  const from = engine.consoleText(vmid).length;
  await wait(provider.power(NODE, vmid, 'start'));
  await engine.waitConsole(vmid, new RegExp(GUEST_READY_LINE), BOOT_TIMEOUT_MS, from);
}

const cdrom = async (): Promise<string | null> => {
  const blocks = await engine.qmpCommand<{ qdev: string; inserted?: { file: string } }[]>(
    vmid,
    'query-block',
  );
  return blocks.find((b) => b.qdev.includes('ide2'))?.inserted?.file ?? null;
};
const bootindex = (device: string) =>
  engine.qmpCommand<number>(vmid, 'qom-get', {
    path: `/machine/peripheral/${device}`,
    property: 'bootindex',
  });

beforeAll(async () => {
  const guest = await ensureGuestImage(guestImageDir());
  dir = await mkdtemp(path.join(os.tmpdir(), 'qemu-lifecycle-'));
  await mkdir(path.join(dir, 'iso'), { recursive: true });
  await writeFile(path.join(dir, 'iso', ISO), Buffer.alloc(1024 * 1024, 7));
  engine = new QemuEngine({ dir, guest });
  pve = await startLocalPve({
    engine,
    dataDir: dir,
    nodes: [NODE],
    templates: [{ vmid: TEMPLATE, name: 'debian-12', node: NODE, diskGb: 2, cores: 1, memoryMb: 256 }],
  });
  provider = new PveProvider(
    {
      url: pve.url,
      tokenId: pve.tokenId,
      tokenSecret: pve.tokenSecret,
      caFile: null,
      storage: null,
      backupStorage: 'local',
      isoStorage: 'local',
      nodes: [],
    },
    { shutdownTimeoutS: 30, pollMinMs: 50, pollMaxMs: 250 },
  );
}, 300_000);

afterAll(async () => {
  await provider?.close();
  await pve?.close();
  await engine?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  console.log(`QEMU lifecycle timings (ms): ${timings.map(([w, ms]) => `${w} ${ms}`).join(', ')}`);
});

describe('a VPS on real QEMU through the PVE adapter', () => {
  it('boots a trial instance cloned from the template, and the guest acts on an ACPI shutdown', async () => {
    vmid = await provider.nextVmid();
    await timed('clone', () => wait(provider.cloneVm(NODE, TEMPLATE, vmid, 'trial')));
    await configure({ cores: 1, memory: 256 });
    await timed('boot', boot);
    expect(await provider.currentStatus(NODE, vmid)).toMatchObject({
      status: 'running',
      qmpstatus: 'running',
    });
    expect((await provider.listVms(NODE)).find((v) => v.vmid === vmid)).toMatchObject({
      status: 'running',
      maxmem: 256 * 1024 * 1024,
      maxdisk: 2 * 1024 ** 3,
    });

    await timed('shutdown', () => wait(provider.power(NODE, vmid, 'shutdown')));
    expect(engine.consoleText(vmid)).toContain('guest: power button, powering off');
    expect(await provider.currentStatus(NODE, vmid)).toMatchObject({ status: 'stopped' });

    expect(await marker('write')).toBe(true);
    await timed('start', boot);
  }, 180_000);

  it('rolls back a snapshot with RAM to the running state', async () => {
    const from = engine.consoleText(vmid).length;
    await engine.waitConsole(vmid, /tick 2\b/, 30_000, from);
    await timed('snapshot (vmstate)', () =>
      wait(provider.createSnapshot(NODE, vmid, 'warm', 'before the change', true)),
    );
    const ticks = () =>
      [
        ...engine
          .consoleText(vmid)
          .slice(from)
          .matchAll(/tick (\d+)/g),
      ].map((m) => Number(m[1]));
    const atSnapshot = ticks().at(-1)!;
    expect((await provider.listSnapshots(NODE, vmid)).find((s) => s.name === 'warm')).toMatchObject({
      vmstate: true,
    });
    await engine.waitConsole(vmid, new RegExp(`tick ${atSnapshot + 4}\\b`), 30_000, from);

    const beforeRollback = engine.consoleText(vmid).length;
    await timed('rollback', () => wait(provider.rollbackSnapshot(NODE, vmid, 'warm')));
    expect(await provider.currentStatus(NODE, vmid)).toMatchObject({
      status: 'running',
      qmpstatus: 'running',
    });
    await engine.waitConsole(vmid, /tick \d+/, 30_000, beforeRollback);
    const firstAfter = Number(/tick (\d+)/.exec(engine.consoleText(vmid).slice(beforeRollback))![1]);
    // The counter lives in RAM alone: after the rollback it goes on from the snapshot's value.
    expect(firstAfter).toBeLessThanOrEqual(atSnapshot + 2);
    expect(engine.consoleText(vmid).slice(beforeRollback)).not.toContain(GUEST_READY_LINE);
    await timed('delete snapshot', () => wait(provider.deleteSnapshot(NODE, vmid, 'warm')));
  }, 120_000);

  it('backs up the running instance with zstd and restores it', async () => {
    await timed('backup (zstd, snapshot mode)', () =>
      wait(provider.backup(NODE, vmid, 'snapshot', 'zstd', 'nightly')),
    );
    const [backup] = await provider.listBackups(NODE, vmid);
    expect(backup).toMatchObject({ vmid, notes: 'nightly' });
    expect(backup!.volid).toMatch(/^local:backup\/vzdump-qemu-\d+-.*\.qcow2\.zst$/);
    expect(backup!.format).toBe('qcow2.zst');
    expect(backup!.size).toBeGreaterThan(0);
    expect((await provider.currentStatus(NODE, vmid)).qmpstatus).toBe('running');

    await wait(provider.power(NODE, vmid, 'stop'));
    expect(await marker('erase')).toBe(true);
    expect(await marker('read')).toBe(false);
    await timed('restore', () => wait(provider.restoreBackup(NODE, vmid, backup!.volid)));
    expect(await marker('read')).toBe(true);
    expect(await provider.currentStatus(NODE, vmid)).toMatchObject({ status: 'stopped' });
  }, 120_000);

  it('puts a rescue ISO in and takes it out, changing the boot order', async () => {
    await timed('start', boot);
    const [iso] = (await provider.listIsos(NODE)).filter((i) => i.volid.endsWith(ISO));
    expect(iso).toBeDefined();
    const isoFile = path.join(dir, 'iso', ISO);
    await timed('rescue enter', async () => {
      await configure({
        ide2: `${iso!.volid},media=cdrom`,
        boot: 'order=ide2;scsi0',
      });
      // The medium changes at once (as PVE hot-plugs a CD-ROM); the boot order at the next start.
      expect(await cdrom()).toBe(isoFile);
      await wait(provider.power(NODE, vmid, 'stop'));
      await boot();
    });
    expect(await cdrom()).toBe(isoFile);
    expect(await bootindex('ide2')).toBeLessThan(await bootindex('scsi0'));

    await timed('rescue exit', async () => {
      await configure({ ide2: 'none,media=cdrom', boot: 'order=scsi0;ide2;net0' });
      expect(await cdrom()).toBeNull();
      await wait(provider.power(NODE, vmid, 'stop'));
      await boot();
    });
    expect(await cdrom()).toBeNull();
    expect(await bootindex('scsi0')).toBeLessThan(await bootindex('ide2'));
  }, 120_000);

  it('rebuilds: the disk wiped, the template cloned again, the instance started', async () => {
    await timed('rebuild', async () => {
      await wait(provider.power(NODE, vmid, 'stop'));
      await wait(provider.destroyVm(NODE, vmid));
      await wait(provider.cloneVm(NODE, TEMPLATE, vmid, 'trial'));
      expect(await marker('read')).toBe(false);
      await configure({ cores: 1, memory: 256 });
      await boot();
    });
    expect(await provider.currentStatus(NODE, vmid)).toMatchObject({
      status: 'running',
      qmpstatus: 'running',
    });
  }, 120_000);
});
