import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localCa } from '../../../testing/local-ca.ts';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { startLocalPve, type LocalPve } from '../local-pve/pve-server.ts';
import { StateEngine } from '../local-pve/state-engine.ts';
import { ProviderError, VmNotFound, type StartedTask } from './compute-provider.ts';
import { PveProvider } from './pve-provider.ts';
import type { PveProviderSettings } from './provider-config.ts';

const settingsFor = (pve: LocalPve, more: Partial<PveProviderSettings> = {}): PveProviderSettings => ({
  url: pve.url,
  tokenId: pve.tokenId,
  tokenSecret: pve.tokenSecret,
  caFile: null,
  storage: null,
  backupStorage: 'local',
  isoStorage: 'local',
  nodes: ['pve1'],
  ...more,
});

describe('the whole provider port through the adapter (state engine)', () => {
  let dir: string;
  let pve: LocalPve;
  let engine: StateEngine;
  let provider: PveProvider;
  const clock = new ManualClock(Date.UTC(2026, 10, 29, 12, 0, 0));
  const wait = (t: StartedTask | null) => provider.waitTask(t!, 5_000);
  const writes = () => pve.requests.filter((r) => r.method !== 'GET');
  const lastWrite = () => writes().at(-1)!;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pve-port-'));
    engine = new StateEngine({ clock, opDelayMs: 2 });
    pve = await startLocalPve({
      engine,
      dataDir: dir,
      templates: [{ vmid: 9000, name: 'debian-12', diskGb: 10 }],
      isos: [
        { name: 'systemrescue-11.02-amd64.iso', size: 1_017_380_864 },
        { name: 'debian-12.8.0-amd64-netinst.iso', size: 661_651_456 },
      ],
      clock,
    });
    provider = new PveProvider(settingsFor(pve), { pollMinMs: 2, pollMaxMs: 10, shutdownTimeoutS: 30 });
    await wait(await provider.cloneVm('pve1', 9000, 100, 'vps-100'));
    await wait(
      await provider.updateVmConfig('pve1', 100, {
        ciuser: 'debian',
        ipconfig0: 'ip=203.0.113.10/24,gw=203.0.113.1',
      }),
    );
  });

  afterAll(async () => {
    await provider.close();
    await pve.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the token on every request, GET parameters in the query, others as a form', () => {
    expect(pve.requests.length).toBeGreaterThan(0);
    for (const r of pve.requests) {
      expect(r.headers.authorization).toBe(`PVEAPIToken=${pve.tokenId}=${pve.tokenSecret}`);
      if (r.method === 'GET' || r.method === 'DELETE') expect(r.body).toBe('');
      else expect(r.headers['content-type']).toBe('application/x-www-form-urlencoded');
    }
  });

  it('nodes from PVE_NODES need no call', async () => {
    const before = pve.requests.length;
    expect(await provider.nodes()).toEqual(['pve1']);
    expect(pve.requests.length).toBe(before);
  });

  it('nextid is the lowest free vmid (PVE answers it as a string)', async () => {
    expect(await provider.nextVmid()).toBe(101);
  });

  it('grows the disk, never shrinks it', async () => {
    await wait(await provider.resizeDisk('pve1', 100, 'scsi0', '25G'));
    expect(lastWrite()).toMatchObject({
      method: 'PUT',
      path: '/nodes/pve1/qemu/100/resize',
      body: 'disk=scsi0&size=25G',
    });
    expect((await provider.vmConfig('pve1', 100)).scsi0).toBe('local-lvm:vm-100-disk-0,size=25G');
    expect(engine.diskSizeGb(100)).toBe(25);
    await expect(provider.resizeDisk('pve1', 100, 'scsi0', '5G')).rejects.toThrow(
      'shrinking disks is not supported',
    );
  });

  it('regenerates the cloud-init drive (PUT, no task)', async () => {
    await provider.regenerateCloudInit('pve1', 100);
    expect(lastWrite()).toMatchObject({ method: 'PUT', path: '/nodes/pve1/qemu/100/cloudinit', body: '' });
  });

  it('power: start, ACPI shutdown, reboot, reset, forced stop of a paused VM (warnings count as success)', async () => {
    const start = await provider.power('pve1', 100, 'start');
    expect(start.upid).toContain(':qmstart:100:');
    await wait(start);
    await wait(await provider.power('pve1', 100, 'reset'));
    expect(engine.resetCount(100)).toBe(1);
    await wait(await provider.power('pve1', 100, 'reboot'));
    expect(lastWrite().body).toBe('timeout=30');
    expect(engine.resetCount(100)).toBe(0);
    await wait(await provider.power('pve1', 100, 'suspend'));
    const shutdown = await provider.power('pve1', 100, 'shutdown');
    expect(lastWrite().body).toBe('timeout=30&forceStop=1');
    expect(await wait(shutdown)).toMatchObject({ exitstatus: 'WARNINGS: 1' });
    expect((await provider.currentStatus('pve1', 100)).status).toBe('stopped');
    await expect(provider.power('pve1', 100, 'resume')).rejects.toMatchObject({
      status: 500,
      message: 'VM 100 not running',
    });
    await wait(await provider.power('pve1', 100, 'start'));
    engine.setIgnoresAcpi(100, true);
    await wait(await provider.power('pve1', 100, 'shutdown'));
    expect((await provider.currentStatus('pve1', 100)).status).toBe('stopped');
    engine.setIgnoresAcpi(100, false);
  });

  it('rescue: an ISO in the CD-ROM and the boot order, applied by a reboot; then back', async () => {
    const isos = await provider.listIsos('pve1');
    expect(isos).toEqual([
      { volid: 'local:iso/debian-12.8.0-amd64-netinst.iso', size: 661_651_456 },
      { volid: 'local:iso/systemrescue-11.02-amd64.iso', size: 1_017_380_864 },
    ]);
    await wait(await provider.power('pve1', 100, 'start'));
    await wait(
      await provider.updateVmConfig('pve1', 100, {
        ide2: 'local:iso/systemrescue-11.02-amd64.iso,media=cdrom',
        boot: 'order=ide2;scsi0;net0',
      }),
    );
    expect(engine.cdrom(100)).toBe(path.join(dir, 'iso', 'systemrescue-11.02-amd64.iso'));
    await wait(await provider.power('pve1', 100, 'reboot'));
    expect(engine.runningSpec(100)).toMatchObject({ bootOrder: ['ide2', 'scsi0', 'net0'] });
    await expect(
      provider.updateVmConfig('pve1', 100, { ide2: 'local:iso/missing.iso,media=cdrom' }),
    ).rejects.toThrow("volume 'local:iso/missing.iso' does not exist");
    await wait(
      await provider.updateVmConfig('pve1', 100, { ide2: 'none,media=cdrom', boot: 'order=scsi0;ide2;net0' }),
    );
    expect(engine.cdrom(100)).toBeNull();
    const c = await provider.vmConfig('pve1', 100);
    expect([c.ide2, c.boot]).toEqual(['none,media=cdrom', 'order=scsi0;ide2;net0']);
  });

  it('removes config keys with delete (a comma list)', async () => {
    await wait(
      await provider.updateVmConfig('pve1', 100, {
        description: 'x',
        delete: ['nameserver', 'searchdomain'],
      }),
    );
    expect(lastWrite().body).toBe('description=x&delete=nameserver%2Csearchdomain');
  });

  it('graphs: rrddata with timeframe and cf', async () => {
    clock.advance(2 * 86_400_000);
    const points = await provider.rrdData('pve1', 100, 'day', 'MAX');
    expect(pve.requests.at(-1)).toMatchObject({
      path: '/nodes/pve1/qemu/100/rrddata',
      query: 'timeframe=day&cf=MAX',
    });
    expect(points).toHaveLength(70);
    expect(points.at(-2)).toEqual({
      time: expect.any(Number),
      cpu: expect.any(Number),
      mem: expect.any(Number),
      maxmem: 512 * 1024 * 1024,
      netin: expect.any(Number),
      netout: expect.any(Number),
      diskread: expect.any(Number),
      diskwrite: expect.any(Number),
    });
    expect(points[0]!.cpu).toBeGreaterThan(0);
    const week = await provider.rrdData('pve1', 100, 'week', 'AVERAGE');
    expect(week[0]).toMatchObject({ cpu: null, mem: null });
  });

  it('the guest agent: OS and addresses; set-user-password', async () => {
    const info = await provider.guestInfo('pve1', 100);
    expect(info.interfaces.find((i) => i.name === 'eth0')).toMatchObject({
      addresses: [{ address: '203.0.113.10', prefix: 24, family: 'ipv4' }],
    });
    await provider.setGuestPassword('pve1', 100, 'debian', 'n3w-Passw0rd');
    expect(lastWrite().body).toBe('username=debian&password=n3w-Passw0rd&crypted=0');
    expect(engine.guestPasswords.get(100)?.get('debian')).toBe('n3w-Passw0rd');
    await expect(provider.setGuestPassword('pve1', 100, 'debian', 'abc')).rejects.toMatchObject({
      status: 400,
      errors: { password: 'value must be at least 5 characters long' },
    });
  });

  it('console: a VNC ticket and the websocket URL', async () => {
    const t = await provider.openConsole('pve1', 100);
    expect(lastWrite().body).toBe('websocket=1');
    expect(t.ticket).toMatch(/^PVEVNC:[0-9A-F]{8}::/);
    expect(t.port).toBeGreaterThanOrEqual(5900);
    expect(t.user).toBe(pve.tokenId);
    expect(t.upid).toContain(':vncproxy:100:');
    const url = new URL(provider.consoleUrl('pve1', 100, t));
    expect(url.protocol).toBe('ws:');
    expect(url.pathname).toBe('/api2/json/nodes/pve1/qemu/100/vncwebsocket');
    expect(url.searchParams.get('port')).toBe(String(t.port));
    expect(url.searchParams.get('vncticket')).toBe(t.ticket);
  });

  it('a snapshot without RAM: rollback leaves the VM stopped; the task status of each', async () => {
    const t = await provider.createSnapshot('pve1', 100, 'disk_only', '', false);
    const s = await provider.waitTask(t, 5_000);
    expect(s).toMatchObject({
      node: 'pve1',
      status: 'stopped',
      exitstatus: 'OK',
      type: 'qmsnapshot',
      upid: t.upid,
    });
    await wait(await provider.rollbackSnapshot('pve1', 100, 'disk_only'));
    expect((await provider.currentStatus('pve1', 100)).status).toBe('stopped');
    expect((await provider.listSnapshots('pve1', 100)).map((x) => [x.name, x.vmstate])).toEqual([
      ['disk_only', false],
    ]);
  });

  it('backup modes and compressions as PVE names them (none is 0)', async () => {
    const cases = [
      ['stop', 'none', 'vma'],
      ['suspend', 'gzip', 'vma.gz'],
      ['snapshot', 'lzo', 'vma.lzo'],
    ] as const;
    for (const [mode, compress, format] of cases) {
      clock.advance(1_000);
      await wait(await provider.backup('pve1', 100, mode, compress, `${mode} ${compress}`));
      const body = new URLSearchParams(lastWrite().body);
      expect([body.get('mode'), body.get('compress')]).toEqual([mode, compress === 'none' ? '0' : compress]);
      const b = (await provider.listBackups('pve1', 100)).find((x) => x.notes === `${mode} ${compress}`);
      expect(b?.format).toBe(format);
    }
  });

  it('destroying a running VM is refused; destroyed, its vmid is free again', async () => {
    await wait(await provider.power('pve1', 100, 'start'));
    await expect(provider.destroyVm('pve1', 100)).rejects.toThrow('VM 100 is running - destroy failed');
    await wait(await provider.power('pve1', 100, 'stop'));
    const d = await provider.destroyVm('pve1', 100);
    expect(pve.requests.at(-1)).toMatchObject({
      method: 'DELETE',
      path: '/nodes/pve1/qemu/100',
      query: 'purge=1&destroy-unreferenced-disks=1',
    });
    await wait(d);
    expect(await provider.nextVmid()).toBe(100);
    const gone = await provider.currentStatus('pve1', 100).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(VmNotFound);
    expect(gone).toMatchObject({
      status: 500,
      message: "Configuration file 'nodes/pve1/qemu-server/100.conf' does not exist",
    });
  });

  it('waitTask gives up after its timeout', async () => {
    const slow = new StateEngine({ clock, opDelayMs: 300 });
    const d2 = mkdtempSync(path.join(tmpdir(), 'pve-port-slow-'));
    const other = await startLocalPve({
      engine: slow,
      dataDir: d2,
      templates: [{ vmid: 9000, name: 't' }],
      clock,
    });
    const p = new PveProvider(settingsFor(other), { pollMinMs: 5, pollMaxMs: 5 });
    const t = await p.cloneVm('pve1', 9000, 100, 'slow');
    const err = await p.waitTask(t, 50).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).status).toBe(504);
    await p.close();
    await other.close();
    rmSync(d2, { recursive: true, force: true });
  });
});

describe('the adapter over TLS with PVE_CA_FILE', () => {
  it('trusts the cluster’s CA from the file, and refuses without it', async () => {
    const ca = localCa();
    const dir = mkdtempSync(path.join(tmpdir(), 'pve-tls-'));
    const clock = new ManualClock();
    const pve = await startLocalPve({
      engine: new StateEngine({ clock }),
      dataDir: dir,
      templates: [{ vmid: 9000, name: 'debian-12' }],
      tls: { key: ca.key, cert: ca.cert },
      clock,
    });
    expect(pve.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const trusted = new PveProvider(settingsFor(pve, { caFile: ca.caFile, nodes: [] }));
    const untrusted = new PveProvider(settingsFor(pve));
    try {
      expect(await trusted.nodes()).toEqual(['pve1']);
      expect((await trusted.listVms('pve1')).map((v) => v.vmid)).toEqual([9000]);
      const t = await trusted.openConsole('pve1', 9000).catch((e: unknown) => e);
      expect(t).toMatchObject({ message: 'VM 9000 not running' });
      expect(
        trusted.consoleUrl('pve1', 9000, { port: 5900, ticket: 'PVEVNC:x', user: 'u', upid: 'u' }),
      ).toMatch(
        /^wss:\/\/127\.0\.0\.1:\d+\/api2\/json\/nodes\/pve1\/qemu\/9000\/vncwebsocket\?port=5900&vncticket=PVEVNC%3Ax$/,
      );
      const err = await untrusted.listVms('pve1').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderError);
      expect((err as ProviderError).status).toBe(0);
    } finally {
      await trusted.close();
      await untrusted.close();
      await pve.close();
      rmSync(dir, { recursive: true, force: true });
      rmSync(ca.dir, { recursive: true, force: true });
    }
  });
});
