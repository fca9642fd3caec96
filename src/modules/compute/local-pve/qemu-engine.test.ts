/**
 * The QEMU engine on real QEMU (TCG) with the busybox guest: power through QMP and the guest's
 * ACPI, snapshots with and without RAM, backups and restores, the CD-ROM's medium. Needs
 * `qemu-system-x86 qemu-utils busybox-static zstd lzop` and the cloud kernel package
 * (guest-image.ts fetches it); without them the suite fails.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureGuestImage, GUEST_READY_LINE, guestImageDir } from './guest-image.js';
import type { EngineVmSpec } from './pve-engine.js';
import { QemuEngine } from './qemu-engine.js';

const execFileP = promisify(execFile);
const BOOT_TIMEOUT_MS = 60_000;
const MARKER_OFFSET = 1024 * 1024;

let dir: string;
let engine: QemuEngine;

const spec = (vmid: number, over: Partial<EngineVmSpec> = {}): EngineVmSpec => ({
  vmid,
  cores: 1,
  memoryMb: 256,
  bootOrder: ['scsi0', 'ide2', 'net0'],
  cdromPath: null,
  cloudInit: { hostname: `vm${vmid}`, user: null, passwordHash: null, sshKeys: [], ipconfig0: null },
  ...over,
});

/** Writes (or checks) a byte pattern at 1 MiB of a stopped VM's disk with qemu-io. */
async function marker(disk: string, op: 'write' | 'read'): Promise<boolean> {
  const args = ['-f', 'qcow2', '-c', `${op} -P 0x5a ${MARKER_OFFSET} 4k`, disk];
  const out = await execFileP('qemu-io', args).catch((err: { stdout?: string; stderr?: string }) => ({
    stdout: `${err.stdout ?? ''}${err.stderr ?? ''}`,
  }));
  if (/Pattern verification failed/.test(out.stdout)) return false;
  if (!/(read|wrote) 4096\/4096 bytes/.test(out.stdout)) throw new Error(`qemu-io ${op}: ${out.stdout}`);
  return true;
}

function lastTick(text: string): number {
  const all = [...text.matchAll(/tick (\d+)/g)];
  return all.length === 0 ? 0 : Number(all[all.length - 1]![1]);
}

beforeAll(async () => {
  const guest = await ensureGuestImage(guestImageDir());
  dir = await mkdtemp(path.join(os.tmpdir(), 'qemu-engine-'));
  engine = new QemuEngine({ dir, guest });
  await engine.createTemplateDisk(9000, 2);
}, 300_000);

afterAll(async () => {
  await engine?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('QEMU engine', () => {
  it('boots a clone, pauses and resumes it, and the ACPI power button stops it', async () => {
    await engine.cloneDisk(9000, 101);
    expect(await marker(engine.diskPath(101), 'write')).toBe(true);
    await engine.start(spec(101));
    expect(engine.runState(101).status).toBe('running');
    await engine.waitConsole(101, new RegExp(GUEST_READY_LINE), BOOT_TIMEOUT_MS);
    expect(engine.consoleText(101)).toContain('guest: disk /dev/vda');

    await engine.suspend(101);
    expect(engine.runState(101).qmpstatus).toBe('paused');
    expect(await engine.qmpCommand(101, 'query-status')).toMatchObject({ status: 'paused' });
    await engine.resume(101);
    expect(engine.runState(101)).toMatchObject({ status: 'running', qmpstatus: 'running' });

    const pid = engine.pid(101)!;
    await engine.shutdown(101, 30);
    expect(engine.consoleText(101)).toContain('guest: power button, powering off');
    expect(engine.runState(101).status).toBe('stopped');
    expect(() => process.kill(pid, 0)).toThrow();
  }, 120_000);

  it('rolls back to a snapshot with RAM: the guest counts on from where it was', async () => {
    await engine.start(spec(101));
    const from = engine.consoleText(101).length;
    await engine.waitConsole(101, /tick 3\b/, BOOT_TIMEOUT_MS, from);
    await engine.snapshotCreate(101, 'warm', true);
    const atSnapshot = lastTick(engine.consoleText(101).slice(from));
    await engine.waitConsole(101, new RegExp(`tick ${atSnapshot + 4}\\b`), 30_000, from);
    const beforeRollback = engine.consoleText(101).length;
    await engine.snapshotRollback(101, 'warm', true);
    expect(engine.runState(101).qmpstatus).toBe('running');
    await engine.waitConsole(101, /tick \d+/, 30_000, beforeRollback);
    const firstAfter = Number(/tick (\d+)/.exec(engine.consoleText(101).slice(beforeRollback))![1]);
    expect(firstAfter).toBeLessThanOrEqual(atSnapshot + 2);

    // Stopped, a rollback with RAM starts the VM from the saved state (-loadvm).
    await engine.stop(101);
    const beforeLoad = engine.consoleText(101).length;
    await engine.snapshotRollback(101, 'warm', true);
    expect(engine.runState(101).status).toBe('running');
    await engine.waitConsole(101, /tick \d+/, 30_000, beforeLoad);
    expect(engine.consoleText(101).slice(beforeLoad)).not.toContain(GUEST_READY_LINE);
    await engine.snapshotDelete(101, 'warm');
    const { stdout } = await execFileP('qemu-img', ['snapshot', '-U', '-l', engine.diskPath(101)]);
    expect(stdout).not.toContain('warm');
  }, 120_000);

  it('changes the CD-ROM medium of a running VM and starts with the boot order given', async () => {
    const iso = path.join(dir, 'rescue.iso');
    await writeFile(iso, Buffer.alloc(64 * 1024, 1));
    await engine.changeMedium(101, iso);
    const cd = (blocks: { device: string; qdev: string; inserted?: { file: string } }[]) =>
      blocks.find((b) => b.qdev.includes('ide2'));
    expect(cd(await engine.qmpCommand(101, 'query-block'))?.inserted?.file).toBe(iso);
    await engine.changeMedium(101, null);
    expect(cd(await engine.qmpCommand(101, 'query-block'))?.inserted).toBeUndefined();
    await engine.stop(101);

    await engine.start(spec(101, { cdromPath: iso, bootOrder: ['ide2', 'scsi0'] }));
    expect(cd(await engine.qmpCommand(101, 'query-block'))?.inserted?.file).toBe(iso);
    const bootindex = (id: string) =>
      engine.qmpCommand(101, 'qom-get', { path: `/machine/peripheral/${id}`, property: 'bootindex' });
    expect(await bootindex('ide2')).toBe(100);
    expect(await bootindex('scsi0')).toBe(101);
    await engine.stop(101);
  }, 120_000);

  it('backs up a running VM (zstd) and restores it; disk-only snapshots while stopped', async () => {
    await engine.start(spec(101));
    const archive = path.join(dir, 'dump', 'vzdump-qemu-101.qcow2.zst');
    const size = await engine.backup(101, archive, 'zstd');
    expect(size).toBeGreaterThan(0);
    expect(engine.runState(101).qmpstatus).toBe('running');
    await engine.stop(101);

    const gz = path.join(dir, 'dump', 'vzdump-qemu-101.qcow2.gz');
    expect(await engine.backup(101, gz, 'gzip')).toBeGreaterThan(0);
    expect((await readFile(gz)).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b])); // RFC 1952's magic

    await engine.snapshotCreate(101, 'cold', false);
    await engine.destroyDisk(101);
    await engine.cloneDisk(9000, 101);
    expect(await marker(engine.diskPath(101), 'read')).toBe(false);
    await engine.restore(101, archive, 'zstd');
    expect(await marker(engine.diskPath(101), 'read')).toBe(true);

    await engine.snapshotCreate(101, 'before', false);
    await execFileP('qemu-io', ['-f', 'qcow2', '-c', `write -P 0 ${MARKER_OFFSET} 4k`, engine.diskPath(101)]);
    expect(await marker(engine.diskPath(101), 'read')).toBe(false);
    await engine.snapshotRollback(101, 'before', false);
    expect(await marker(engine.diskPath(101), 'read')).toBe(true);
    await engine.snapshotDelete(101, 'before');

    await engine.resizeDisk(101, 3);
    const { stdout } = await execFileP('qemu-img', ['info', '--output=json', engine.diskPath(101)]);
    expect((JSON.parse(stdout) as { 'virtual-size': number })['virtual-size']).toBe(3 * 1024 ** 3);
  }, 120_000);

  it('close kills the VMs it runs', async () => {
    await engine.start(spec(101));
    const pid = engine.pid(101)!;
    await engine.close();
    expect(() => process.kill(pid, 0)).toThrow();
    engine = new QemuEngine({ dir, guest: await ensureGuestImage(guestImageDir()) });
  }, 60_000);
});
