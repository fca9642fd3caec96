import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { startLocalPve, type LocalPve } from './pve-server.ts';
import { StateEngine } from './state-engine.ts';

/** The local PVE server's wire format, read raw (no adapter): what a PVE client sees. */
describe('the local PVE server on the wire', () => {
  let dir: string;
  let pve: LocalPve;
  let engine: StateEngine;
  const clock = new ManualClock(Date.UTC(2026, 10, 29, 12, 0, 0));
  const T = clock.now() / 1000;
  const T_HEX = T.toString(16).toUpperCase();

  const call = async (
    method: string,
    p: string,
    body?: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; statusText: string; type: string | null; json: Record<string, unknown> }> => {
    const res = await fetch(`${pve.url}/api2/json${p}`, {
      method,
      headers: {
        authorization: `PVEAPIToken=${pve.tokenId}=${pve.tokenSecret}`,
        ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      body,
    });
    return {
      status: res.status,
      statusText: res.statusText,
      type: res.headers.get('content-type'),
      json: (await res.json()) as Record<string, unknown>,
    };
  };
  const waitTask = async (upid: string): Promise<Record<string, unknown>> => {
    for (let i = 0; i < 200; i += 1) {
      const r = await call('GET', `/nodes/pve1/tasks/${encodeURIComponent(upid)}/status`);
      const d = r.json.data as Record<string, unknown>;
      if (d.status === 'stopped') return d;
      await new Promise((res) => setTimeout(res, 5));
    }
    throw new Error('task still running');
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pve-server-'));
    pve = await startLocalPve({
      engine: (engine = new StateEngine({ clock })),
      dataDir: dir,
      templates: [{ vmid: 9000, name: 'debian-12', diskGb: 4 }],
      isos: ['rescue.iso'],
      tokenId: 'platform@pve!compute',
      tokenSecret: '0b6e4a1c-2d3f-4e5a-8b9c-0d1e2f3a4b5c',
      clock,
    });
  });

  afterAll(async () => {
    await pve.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers {data} as application/json;charset=UTF-8', async () => {
    const r = await call('GET', '/nodes');
    expect(r.status).toBe(200);
    expect(r.type).toBe('application/json;charset=UTF-8');
    expect(r.json.data).toEqual([expect.objectContaining({ node: 'pve1', status: 'online', type: 'node' })]);
    expect((await call('GET', '/cluster/nextid')).json).toEqual({ data: '100' });
  });

  it('refuses requests without the token (401, the reason as status text)', async () => {
    const none = await fetch(`${pve.url}/api2/json/nodes`);
    expect([none.status, none.statusText]).toEqual([401, 'No ticket']);
    const wrong = await call('GET', '/nodes', undefined, {
      authorization: 'PVEAPIToken=platform@pve!compute=nope',
    });
    expect([wrong.status, wrong.statusText]).toEqual([401, 'invalid token value!']);
  });

  it('unknown paths: 501 not implemented', async () => {
    const r = await call('GET', '/nodes/pve1/lxc');
    expect([r.status, r.statusText]).toEqual([501, "Method 'GET /nodes/pve1/lxc' not implemented"]);
  });

  it('runs tasks asynchronously: a UPID at once, running, then stopped with exitstatus OK', async () => {
    const release = engine.holdOperations();
    const r = await call('POST', '/nodes/pve1/qemu/9000/clone', 'newid=100&name=a1&full=1');
    const upid = r.json.data as string;
    expect(upid).toMatch(
      new RegExp(`^UPID:pve1:[0-9A-F]{8}:[0-9A-F]{8}:${T_HEX}:qmclone:9000:platform@pve!compute:$`),
    );
    const running = await call('GET', `/nodes/pve1/tasks/${encodeURIComponent(upid)}/status`);
    expect(running.json.data).toMatchObject({
      status: 'running',
      type: 'qmclone',
      id: '9000',
      user: 'platform@pve',
    });
    expect(running.json.data).not.toHaveProperty('exitstatus');
    const list = await call('GET', '/nodes/pve1/qemu?full=1');
    expect((list.json.data as Record<string, unknown>[]).find((v) => v.vmid === 100)).toMatchObject({
      lock: 'clone',
    });
    release();
    const done = await waitTask(upid);
    expect(done).toMatchObject({
      upid,
      node: 'pve1',
      status: 'stopped',
      exitstatus: 'OK',
      tokenid: 'compute',
      starttime: T,
    });
    expect(typeof done.pid).toBe('number');
  });

  it('a conflicting task holds the lock: the other task fails with VM is locked (backup)', async () => {
    const release = engine.holdOperations();
    const r = await call('POST', '/nodes/pve1/vzdump', 'vmid=100&mode=snapshot&compress=zstd&storage=local');
    // PVE checks the lock in the worker: the start is accepted, its task fails.
    const during = await call('POST', '/nodes/pve1/qemu/100/status/start', '');
    expect(during.status).toBe(200);
    expect(await waitTask(during.json.data as string)).toMatchObject({
      status: 'stopped',
      exitstatus: 'VM is locked (backup)',
    });
    const c = (await call('GET', '/nodes/pve1/qemu/100/config')).json.data as Record<string, unknown>;
    expect(c.lock).toBe('backup');
    // The cloud-init drive is regenerated synchronously: refused at once.
    const regen = await call('PUT', '/nodes/pve1/qemu/100/cloudinit', '');
    expect([regen.status, regen.statusText, regen.json]).toEqual([
      500,
      'VM is locked (backup)',
      { data: null },
    ]);
    release();
    expect(await waitTask(r.json.data as string)).toMatchObject({ exitstatus: 'OK' });
  });

  it('shows the config as PVE does: numbers, memory as text, the password masked, a digest', async () => {
    const set = await call('POST', '/nodes/pve1/qemu/100/config', 'cipassword=s3cret-pw&cores=2&memory=1024');
    await waitTask(set.json.data as string);
    const c = (await call('GET', '/nodes/pve1/qemu/100/config')).json.data as Record<string, unknown>;
    expect(c).toMatchObject({ cores: 2, memory: '1024', cipassword: '**********', name: 'a1', sockets: 1 });
    expect(c).not.toHaveProperty('template');
    expect(c.digest).toMatch(/^[0-9a-f]{40}$/);
    const stale = await call('POST', '/nodes/pve1/qemu/100/config', 'cores=1&digest=0000');
    expect(stale.statusText).toBe('detected modified configuration - file changed by other user? Try again.');
  });

  it('validates parameters as PVE does: 400 with a reason per parameter', async () => {
    const cases: [string, string, string | undefined, Record<string, string>][] = [
      [
        'POST',
        '/nodes/pve1/qemu/100/snapshot',
        'snapname=s1&vmstate=true',
        { vmstate: "type check ('boolean') failed - got 'true'" },
      ],
      [
        'POST',
        '/nodes/pve1/vzdump',
        'vmid=100&mode=live',
        { mode: "value 'live' does not have a value in the enumeration 'snapshot, suspend, stop'" },
      ],
      [
        'POST',
        '/nodes/pve1/vzdump',
        'vmid=100&compress=none',
        { compress: "value 'none' does not have a value in the enumeration '0, 1, gzip, lzo, zstd'" },
      ],
      [
        'GET',
        '/nodes/pve1/qemu/100/rrddata?timeframe=minute&cf=AVERAGE',
        undefined,
        {
          timeframe: "value 'minute' does not have a value in the enumeration 'hour, day, week, month, year'",
        },
      ],
      [
        'GET',
        '/nodes/pve1/qemu/100/rrddata?timeframe=hour&cf=MIN',
        undefined,
        { cf: "value 'MIN' does not have a value in the enumeration 'AVERAGE, MAX'" },
      ],
      [
        'POST',
        '/nodes/pve1/qemu/100/config',
        `sshkeys=${encodeURIComponent('ssh-ed25519 AAAAC3Nz x@y')}`,
        { sshkeys: 'invalid format - invalid urlencoded string: ssh-ed25519 AAAAC3Nz x@y' },
      ],
      [
        'POST',
        '/nodes/pve1/qemu/100/config',
        'colour=blue',
        {
          colour: 'property is not defined in schema and the schema does not allow additional properties',
        },
      ],
      [
        'POST',
        '/nodes/pve1/qemu/100/snapshot',
        'description=x',
        { snapname: 'property is missing and it is not optional' },
      ],
      ['POST', '/nodes/pve1/qemu/99/status/start', '', { vmid: 'value must have a minimum value of 100' }],
    ];
    for (const [method, p, body, errors] of cases) {
      const r = await call(method, p, body);
      expect([r.status, r.statusText, r.json], `${method} ${p} ${body ?? ''}`).toEqual([
        400,
        'Parameter verification failed.',
        { data: null, errors },
      ]);
    }
  });

  it('lists snapshots with the current pseudo-entry', async () => {
    const r = await call('POST', '/nodes/pve1/qemu/100/snapshot', 'snapname=s1&description=one&vmstate=0');
    await waitTask(r.json.data as string);
    const list = (await call('GET', '/nodes/pve1/qemu/100/snapshot')).json.data;
    expect(list).toEqual([
      { name: 's1', description: 'one', snaptime: T },
      { name: 'current', description: 'You are here!', running: 0, parent: 's1' },
    ]);
    const dup = await call('POST', '/nodes/pve1/qemu/100/snapshot', 'snapname=s1');
    expect(await waitTask(dup.json.data as string)).toMatchObject({
      exitstatus: "snapshot name 's1' already used",
    });
  });

  it('gives rrddata at PVE’s resolutions, 70 points each', async () => {
    const steps = { hour: 60, day: 1800, week: 10_800, month: 43_200, year: 604_800 };
    for (const [timeframe, step] of Object.entries(steps)) {
      const points = (await call('GET', `/nodes/pve1/qemu/100/rrddata?timeframe=${timeframe}&cf=AVERAGE`))
        .json.data as { time: number }[];
      expect(points).toHaveLength(70);
      expect(points[1]!.time - points[0]!.time).toBe(step);
      expect(points.at(-1)!.time % step).toBe(0);
    }
  });

  it('lists ISO images and keeps vzdump archives named as PVE names them', async () => {
    const isos = (await call('GET', '/nodes/pve1/storage/local/content?content=iso')).json.data;
    expect(isos).toEqual([
      expect.objectContaining({ volid: 'local:iso/rescue.iso', content: 'iso', format: 'iso' }),
    ]);
    const backups = (await call('GET', '/nodes/pve1/storage/local/content?content=backup&vmid=100')).json
      .data;
    expect(backups).toEqual([
      expect.objectContaining({
        volid: 'local:backup/vzdump-qemu-100-2026_11_29-12_00_00.vma.zst',
        content: 'backup',
        format: 'vma.zst',
        subtype: 'qemu',
        vmid: 100,
        ctime: T,
      }),
    ]);
  });
});

describe('the local PVE server’s seeding and state file', () => {
  it('seeds many VMs at once and lists them in one call', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pve-seed-'));
    const clock = new ManualClock();
    const pve = await startLocalPve({
      engine: new StateEngine({ clock }),
      dataDir: dir,
      nodes: ['pve1', 'pve2'],
      templates: [{ vmid: 9000, name: 'debian-12' }],
      clock,
    });
    try {
      const ids = await pve.cluster.seedVms({ templateVmid: 9000, count: 500, running: true });
      expect(ids).toHaveLength(500);
      const res = await fetch(`${pve.url}/api2/json/nodes/pve1/qemu?full=1`, {
        headers: { authorization: `PVEAPIToken=${pve.tokenId}=${pve.tokenSecret}` },
      });
      const list = ((await res.json()) as { data: { status: string; template?: number }[] }).data;
      expect(list).toHaveLength(501);
      expect(list.filter((v) => v.status === 'running')).toHaveLength(500);
    } finally {
      await pve.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps VM configs, snapshots and backups across a restart when asked to', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pve-persist-'));
    const clock = new ManualClock();
    const start = () =>
      startLocalPve({
        engine: new StateEngine({ clock }),
        dataDir: dir,
        templates: [{ vmid: 9000, name: 'debian-12' }],
        clock,
        persist: true,
        tokenSecret: 'fixed-secret',
      });
    const first = await start();
    await first.cluster.seedVms({ templateVmid: 9000, count: 2 });
    first.cluster.vms.get(100)!.config.description = 'kept';
    await first.close();
    const second = await start();
    try {
      expect([...second.cluster.vms.keys()].sort()).toEqual([100, 101, 9000]);
      expect(second.cluster.vms.get(100)!.config.description).toBe('kept');
    } finally {
      await second.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
