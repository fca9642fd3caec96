import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { startLocalPve, type LocalPve } from '../local-pve/pve-server.ts';
import { StateEngine } from '../local-pve/state-engine.ts';
import { GuestAgentNotRunning, ProviderError, type StartedTask } from './compute-provider.ts';
import { PveProvider } from './pve-provider.ts';

const KEY_A =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHb0Jq3wqsY/fakeKeyAAAAAAAAAAAAAAAAAAAAAAAA alice@example.org';
const KEY_B = 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7+x/y== bob card:no 1';

describe('PveProvider against the local PVE server (state engine)', () => {
  let dir: string;
  let pve: LocalPve;
  let engine: StateEngine;
  let provider: PveProvider;
  const clock = new ManualClock(Date.UTC(2026, 10, 29, 12, 0, 0));
  const wait = (t: StartedTask) => provider.waitTask(t, 5_000);
  /** The last request that was not a GET (a task poll). */
  const lastWrite = () => pve.requests.filter((r) => r.method !== 'GET').at(-1)!;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pve-provider-'));
    engine = new StateEngine({ clock });
    pve = await startLocalPve({
      engine,
      dataDir: dir,
      nodes: ['pve1', 'pve2'],
      templates: [
        { vmid: 9000, name: 'debian-12', node: 'pve1', diskGb: 10 },
        { vmid: 9001, name: 'debian-12', node: 'pve2', diskGb: 10 },
      ],
      isos: [{ name: 'systemrescue-11.02-amd64.iso', size: 1_000_000 }],
      clock,
    });
    provider = new PveProvider(
      {
        url: pve.url,
        tokenId: pve.tokenId,
        tokenSecret: pve.tokenSecret,
        caFile: null,
        storage: 'local-lvm',
        backupStorage: 'local',
        isoStorage: 'local',
        nodes: [],
      },
      { pollMinMs: 5, pollMaxMs: 20 },
    );
  });

  afterAll(async () => {
    await provider.close();
    await pve.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('discovers the online nodes and lists templates, one call per node', async () => {
    expect(await provider.nodes()).toEqual(['pve1', 'pve2']);
    const before = pve.requests.length;
    const vms = await provider.listVms('pve1');
    expect(pve.requests.length - before).toBe(1);
    expect(pve.requests.at(-1)).toMatchObject({ method: 'GET', path: '/nodes/pve1/qemu', query: 'full=1' });
    expect(vms).toEqual([
      expect.objectContaining({
        vmid: 9000,
        name: 'debian-12',
        template: true,
        status: 'stopped',
        qmpstatus: 'stopped',
        lock: null,
      }),
    ]);
  });

  it('clones a template, configures cloud-init and boots it', async () => {
    const vmid = await provider.nextVmid();
    expect(vmid).toBe(100);
    const clone = await provider.cloneVm('pve1', 9000, vmid, 'web-1');
    expect(clone.upid).toMatch(
      /^UPID:pve1:[0-9A-F]{8}:[0-9A-F]{8}:[0-9A-F]{8}:qmclone:9000:root@pam!localpve:$/,
    );
    const cloneReq = pve.requests.at(-1)!;
    expect(cloneReq.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(cloneReq.headers.authorization).toBe(`PVEAPIToken=${pve.tokenId}=${pve.tokenSecret}`);
    expect(cloneReq.body).toBe('newid=100&name=web-1&full=1&storage=local-lvm');
    const done = await wait(clone);
    expect(done).toMatchObject({ status: 'stopped', exitstatus: 'OK', type: 'qmclone' });

    const change = await provider.updateVmConfig('pve1', vmid, {
      ciuser: 'debian',
      cipassword: 'correct horse',
      sshkeys: `${KEY_A}\n${KEY_B}`,
      ipconfig0: 'ip=203.0.113.10/24,gw=203.0.113.1',
      cores: 2,
      memory: 2048,
    });
    const body = pve.requests.at(-1)!.body;
    // sshkeys URL-encoded as PVE requires (spaces %20), then form-encoded (% → %25).
    expect(body).toContain(`sshkeys=${encodeURIComponent(encodeURIComponent(`${KEY_A}\n${KEY_B}`))}`);
    expect(body).toContain('sshkeys=ssh-ed25519%2520AAAA');
    expect(body).toContain('%250A');
    await wait(change!);
    const config = await provider.vmConfig('pve1', vmid);
    expect(config).toMatchObject({
      name: 'web-1',
      ciuser: 'debian',
      cipassword: '**********',
      sshkeys: `${KEY_A}\n${KEY_B}`,
      cores: 2,
      memory: 2048,
      scsi0: 'local-lvm:vm-100-disk-0,size=10G',
    });
    expect(config.digest).toMatch(/^[0-9a-f]{40}$/);
    expect(pve.cluster.vms.get(vmid)!.config.cipassword).toMatch(/^\$6\$/);

    await wait(await provider.power('pve1', vmid, 'start'));
    const spec = engine.runningSpec(vmid)!;
    expect(spec).toMatchObject({
      cores: 2,
      memoryMb: 2048,
      bootOrder: ['scsi0', 'ide2', 'net0'],
      cdromPath: null,
    });
    expect(spec.cloudInit).toMatchObject({ hostname: 'web-1', user: 'debian', sshKeys: [KEY_A, KEY_B] });
    expect(spec.cloudInit.passwordHash).toMatch(/^\$6\$/);
    const status = await provider.currentStatus('pve1', vmid);
    expect(status).toMatchObject({
      status: 'running',
      qmpstatus: 'running',
      agent: true,
      cpus: 2,
      maxmem: 2048 * 1024 * 1024,
    });
  });

  it('pauses and resumes: PVE says running, qmpstatus tells paused', async () => {
    await wait(await provider.power('pve1', 100, 'suspend'));
    const list = await provider.listVms('pve1');
    expect(list.find((v) => v.vmid === 100)).toMatchObject({ status: 'running', qmpstatus: 'paused' });
    await wait(await provider.power('pve1', 100, 'resume'));
    expect((await provider.currentStatus('pve1', 100)).qmpstatus).toBe('running');
  });

  it('a task that fails rejects waitTask with its exit status', async () => {
    const t = await provider.power('pve1', 100, 'start');
    await expect(wait(t)).rejects.toThrow('VM 100 already running');
  });

  it('snapshots with RAM, rollback, delete', async () => {
    engine.writeDisk(100, 'before');
    await wait(await provider.createSnapshot('pve1', 100, 'snap-1', 'first', true));
    expect(lastWrite().body).toBe('snapname=snap-1&description=first&vmstate=1');
    engine.writeDisk(100, 'after');
    await wait(await provider.power('pve1', 100, 'stop'));
    const snaps = await provider.listSnapshots('pve1', 100);
    expect(snaps).toEqual([
      { name: 'snap-1', description: 'first', snaptime: clock.now() / 1000, vmstate: true, parent: null },
    ]);
    await wait(await provider.rollbackSnapshot('pve1', 100, 'snap-1'));
    expect(engine.diskContent(100)).toBe('before');
    expect((await provider.currentStatus('pve1', 100)).status).toBe('running');
    await wait(await provider.deleteSnapshot('pve1', 100, 'snap-1'));
    expect(await provider.listSnapshots('pve1', 100)).toEqual([]);
  });

  it('backs up with zstd, restores, and keeps the archive after the VM is destroyed', async () => {
    engine.writeDisk(100, 'backed-up');
    const t = await provider.backup('pve1', 100, 'snapshot', 'zstd', 'nightly\nfor {{vmid}}');
    const req = pve.requests.at(-1)!;
    expect(req.path).toBe('/nodes/pve1/vzdump');
    expect(new URLSearchParams(req.body).get('notes-template')).toBe('nightly\\nfor { {vmid}}');
    expect(req.body).toContain('compress=zstd');
    expect(req.body).toContain('remove=0');
    expect(t.upid).toContain(':vzdump:100:');
    await wait(t);
    const backups = await provider.listBackups('pve1', 100);
    expect(backups).toHaveLength(1);
    expect(backups[0]!.volid).toBe('local:backup/vzdump-qemu-100-2026_11_29-12_00_00.vma.zst');
    expect(backups[0]).toMatchObject({ vmid: 100, format: 'vma.zst', notes: 'nightly\nfor { {vmid}}' });
    expect(backups[0]!.size).toBeGreaterThan(0);

    engine.writeDisk(100, 'changed');
    await expect(provider.restoreBackup('pve1', 100, backups[0]!.volid)).rejects.toThrow('VM is running');
    await wait(await provider.power('pve1', 100, 'stop'));
    await wait(await provider.restoreBackup('pve1', 100, backups[0]!.volid));
    expect(engine.diskContent(100)).toBe('backed-up');

    await wait(await provider.destroyVm('pve1', 100));
    expect((await provider.listVms('pve1')).map((v) => v.vmid)).toEqual([9000]);
    expect(await provider.listBackups('pve1', 100)).toHaveLength(1);
    const del = await provider.deleteBackup('pve1', backups[0]!.volid);
    expect(pve.requests.at(-1)!.path).toBe(
      `/nodes/pve1/storage/local/content/${encodeURIComponent(backups[0]!.volid)}`,
    );
    await wait(del!);
    expect(await provider.listBackups('pve1', 100)).toEqual([]);
  });

  it('refuses changes while a task holds the VM lock', async () => {
    await wait(await provider.cloneVm('pve2', 9001, 101, 'db-1'));
    pve.cluster.vms.get(101)!.lock = 'backup';
    const err = await wait(await provider.power('pve2', 101, 'start')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ status: 500, message: 'VM is locked (backup)' });
    expect((await provider.listVms('pve2')).find((v) => v.vmid === 101)!.lock).toBe('backup');
    await expect(provider.regenerateCloudInit('pve2', 101)).rejects.toMatchObject({
      status: 500,
      message: 'VM is locked (backup)',
    });
    pve.cluster.vms.get(101)!.lock = null;
  });

  it('answers PVE 400s with the reasons per parameter', async () => {
    const err = await provider.createSnapshot('pve2', 101, '1bad name', '', false).catch((e: unknown) => e);
    expect(err).toMatchObject({
      status: 400,
      message: 'Parameter verification failed.',
      errors: { snapname: "invalid format - invalid configuration ID '1bad name'" },
    });
  });

  it('the guest agent: answers while it runs, GuestAgentNotRunning otherwise', async () => {
    await wait(await provider.power('pve2', 101, 'start'));
    const info = await provider.guestInfo('pve2', 101);
    expect(info.os).toMatchObject({ id: 'debian', name: 'Debian GNU/Linux 12 (bookworm)' });
    engine.setAgentRunning(101, false);
    await expect(provider.guestInfo('pve2', 101)).rejects.toBeInstanceOf(GuestAgentNotRunning);
    engine.setAgentRunning(101, true);
  });

  it('refuses a wrong token with 401', async () => {
    const bad = new PveProvider({
      url: pve.url,
      tokenId: pve.tokenId,
      tokenSecret: 'wrong',
      caFile: null,
      storage: null,
      backupStorage: 'local',
      isoStorage: 'local',
      nodes: ['pve1'],
    });
    await expect(bad.listVms('pve1')).rejects.toMatchObject({ status: 401 });
    await bad.close();
  });
});
