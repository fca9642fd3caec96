import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ed25519PublicKey,
  orderInstance,
  startLocalCluster,
  type LocalCluster,
} from '../../testing/compute-fixture.ts';
import { eventually } from '../../testing/eventually.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { addMember, createOrg } from '../../testing/org-fixture.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import type { ServicesModule } from '../services/index.ts';

const V = (slug: string) => `/api/v1/orgs/${slug}/vps`;
type Db = Kysely<Record<string, Record<string, unknown>>>;

/** Every route of an instance, with a body that passes validation. */
function instanceRoutes(backupId: number, snapshot: string) {
  return [
    ['GET', ''],
    ['GET', '/status'],
    ['GET', '/config'],
    ['GET', '/ips'],
    ['GET', '/bandwidth'],
    ['GET', '/graphs?timeframe=day'],
    ['GET', '/guest'],
    ['GET', '/console'],
    ['GET', '/rescue/media'],
    ['GET', '/snapshots'],
    ['GET', '/backups'],
    ['POST', '/power', { action: 'reboot' }],
    ['POST', '/snapshots', { name: 'snap1' }],
    ['DELETE', `/snapshots/${snapshot}`],
    ['POST', `/snapshots/${snapshot}/rollback`],
    ['POST', '/backups', {}],
    ['DELETE', `/backups/${backupId}`],
    ['POST', `/backups/${backupId}/restore`],
    ['POST', '/rebuild', { template_id: 1 }],
    ['PATCH', '/hostname', { hostname: 'renamed' }],
    ['POST', '/cloud-init/regenerate'],
    ['POST', '/reset-password'],
    ['PUT', '/ssh-keys', { ssh_keys: '' }],
    ['POST', '/rescue/enter', { iso_volid: 'local:iso/systemrescue-11.02-amd64.iso' }],
    ['POST', '/rescue/exit'],
  ] as const;
}

describe('cloud compute: instances on the local PVE server (state engine)', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 29, 12, 0, 0));
  let cluster: LocalCluster;
  let t: TestApp;
  let db: Db;
  let owner: { token: string; email: string };
  let admin: { token: string; email: string };
  let member: { token: string; email: string };
  let outsider: { token: string; email: string };
  let uuid: string;
  let vmid: number;

  const as = (who: { token: string }, method: string, path: string, body?: unknown) =>
    t.request(method, `${V('acme')}${path}`, { token: who.token, ...(body !== undefined ? { body } : {}) });
  const instance = async (u = uuid) => (await as(owner, 'GET', `/${u}`)).body;
  const waitStatus = (status: string, u = uuid) =>
    eventually(async () => (await instance(u)).status === status, 15_000);

  beforeAll(async () => {
    cluster = await startLocalCluster(clock);
    t = await startTestApp({ clock, env: cluster.env });
    db = t.node.runtime.database.db as unknown as Db;
    owner = await t.signUp();
    admin = await t.signUp();
    member = await t.signUp();
    outsider = await t.signUp();
    await createOrg(t, owner.token, 'acme');
    await addMember(t, owner.token, 'acme', admin.email, 'admin');
    await addMember(t, owner.token, 'acme', member.email, 'member');
    await createOrg(t, outsider.token, 'other');
    ({ uuid } = await orderInstance(t, owner.token, 'acme', { hostname: 'web1' }));
    vmid = (await instance()).vmid;
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.close();
  });

  it('makes an instance from the order: cloned, configured by cloud-init, grown to the plan, started', async () => {
    expect(await instance()).toEqual({
      uuid,
      service_id: expect.any(Number),
      name: 'web1',
      hostname: 'web1',
      status: 'running',
      node: 'pve1',
      vmid: expect.any(Number),
      template: { id: 1, name: 'Debian 12' },
      vcpus: 1,
      memory_mb: 256,
      disk_gb: 2,
      ips: [{ address: '192.0.2.2', family: 'ipv4', gateway: '192.0.2.1', prefix: 24 }],
      location: 'FRA',
      created_at: '2026-11-29T12:00:00.000Z',
    });
    const vm = cluster.pve.cluster.vms.get(vmid)!;
    expect(vm.config).toMatchObject({ name: 'web1', cores: '1', memory: '256', ciuser: 'admin' });
    expect(vm.config.ipconfig0).toBe('ip=192.0.2.2/24,gw=192.0.2.1');
    expect(cluster.engine.diskSizeGb(vmid)).toBe(2);
    const list = await as(member, 'GET', '');
    expect(list.status).toBe(200);
    expect(list.body.items.map((i: { uuid: string }) => i.uuid)).toEqual([uuid]);
    expect((await as(member, 'GET', '?status=stopped')).body).toEqual({ items: [], total: 0 });
  });

  it('answers the reads: templates, status, config, ips, bandwidth, graphs, guest, console, rescue media', async () => {
    const templates = await as(member, 'GET', '/templates');
    expect(templates.status).toBe(200);
    expect(templates.body.items.map((x: { slug: string }) => x.slug)).toContain('debian-12');
    const status = await as(member, 'GET', `/${uuid}/status`);
    expect(status.body).toMatchObject({
      status: 'running',
      uptime_s: expect.any(Number),
      mem_bytes: expect.any(Number),
    });
    const config = await as(member, 'GET', `/${uuid}/config`);
    expect(config.body).toMatchObject({
      vcpus: 1,
      memory_mb: 256,
      disk: { device: 'scsi0', size_gb: 2 },
      cloud_init_user: 'admin',
    });
    expect((await as(member, 'GET', `/${uuid}/ips`)).body.items).toHaveLength(1);
    const bw = await as(member, 'GET', `/${uuid}/bandwidth`);
    expect(bw.body).toMatchObject({ month: '2026-11', traffic_tb: 1, limit_bytes: 1e12, over_limit: false });
    expect(bw.body.in_bytes).toBeGreaterThanOrEqual(0);
    for (const tf of ['hour', 'day', 'week', 'month', 'year']) {
      const g = await as(member, 'GET', `/${uuid}/graphs?timeframe=${tf}`);
      expect(g.status, g.text).toBe(200);
      expect(g.body.points.length).toBeGreaterThan(0);
      expect(Object.keys(g.body.points[0]).sort()).toEqual(
        ['cpu', 'diskread', 'diskwrite', 'mem', 'netin', 'netout', 't'].sort(),
      );
    }
    expect((await as(member, 'GET', `/${uuid}/graphs`)).body.timeframe).toBe('hour');
    const bad = await as(member, 'GET', `/${uuid}/graphs?timeframe=decade`);
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('timeframe');
    expect((await as(member, 'GET', `/${uuid}/guest`)).status).toBe(200);
    cluster.engine.setAgentRunning(vmid, false);
    const noAgent = await as(member, 'GET', `/${uuid}/guest`);
    expect(noAgent.status).toBe(409);
    expect(noAgent.body).toEqual({ detail: 'Guest agent is not running' });
    cluster.engine.setAgentRunning(vmid, true);
    const console = await as(member, 'GET', `/${uuid}/console`);
    expect(console.status, console.text).toBe(200);
    expect(console.body.websocket_url).toMatch(
      /^ws:\/\/127\.0\.0\.1:\d+\/api2\/json\/nodes\/pve1\/qemu\/\d+\/vncwebsocket\?port=\d+&vncticket=/,
    );
    expect(console.body.expires_at).toBe('2026-11-29T12:01:00.000Z');
    const media = await as(member, 'GET', `/${uuid}/rescue/media`);
    expect(media.body.items).toEqual([
      { iso_volid: 'local:iso/systemrescue-11.02-amd64.iso', size_bytes: 1_000_000 },
    ]);
  });

  it('changes power, refusing transitions that make no sense (409)', async () => {
    const stop = await as(admin, 'POST', `/${uuid}/power`, { action: 'stop' });
    expect(stop.status, stop.text).toBe(200);
    expect(stop.body.task).toMatchObject({ id: expect.stringMatching(/^UPID:pve1:/), action: 'stop' });
    await waitStatus('stopped');
    const resume = await as(admin, 'POST', `/${uuid}/power`, { action: 'resume' });
    expect(resume.status).toBe(409);
    expect(resume.body.detail).toBe('Cannot resume an instance that is stopped');
    expect((await as(admin, 'POST', `/${uuid}/power`, { action: 'start' })).status).toBe(200);
    await waitStatus('running');
    expect((await as(admin, 'POST', `/${uuid}/power`, { action: 'suspend' })).status).toBe(200);
    await waitStatus('paused');
    expect((await as(admin, 'POST', `/${uuid}/power`, { action: 'resume' })).status).toBe(200);
    await waitStatus('running');
    expect((await as(admin, 'POST', `/${uuid}/power`, { action: 'fly' })).status).toBe(422);
  });

  it('takes, rolls back and deletes snapshots within the plan’s max_snapshots (403 past it)', async () => {
    expect((await as(admin, 'POST', `/${uuid}/snapshots`, { name: '1bad' })).status).toBe(422);
    expect((await as(admin, 'POST', `/${uuid}/snapshots`, { name: 'x' })).status).toBe(422);
    const made = await as(admin, 'POST', `/${uuid}/snapshots`, {
      name: 'before',
      description: 'd',
      vmstate: true,
    });
    expect(made.status, made.text).toBe(200);
    expect(made.body).toMatchObject({ id: 'before', name: 'before', vmstate: true });
    const over = await as(admin, 'POST', `/${uuid}/snapshots`, { name: 'second' });
    expect(over.status).toBe(403);
    expect(over.body.detail).toBe('The plan allows 1 snapshots');
    expect(
      (await as(member, 'GET', `/${uuid}/snapshots`)).body.items.map((s: { id: string }) => s.id),
    ).toEqual(['before']);
    const rolled = await as(admin, 'POST', `/${uuid}/snapshots/before/rollback`);
    expect(rolled.status, rolled.text).toBe(200);
    expect((await as(admin, 'POST', `/${uuid}/snapshots/nothere/rollback`)).status).toBe(404);
    expect((await as(admin, 'DELETE', `/${uuid}/snapshots/before`)).body).toEqual({
      id: 'before',
      deleted: true,
    });
    expect((await as(member, 'GET', `/${uuid}/snapshots`)).body.items).toEqual([]);
  });

  it('backs up (403 past max_backups), restores (restoring, then stopped) and deletes', async () => {
    const made = await as(admin, 'POST', `/${uuid}/backups`, { note: 'first' });
    expect(made.status, made.text).toBe(200);
    expect(made.body).toMatchObject({
      note: 'first',
      mode: 'snapshot',
      compress: 'zstd',
      status: 'running',
      size_bytes: null,
    });
    const id = made.body.id as number;
    await eventually(
      async () => (await as(member, 'GET', `/${uuid}/backups`)).body.items[0].status === 'completed',
      15_000,
    );
    const [done] = (await as(member, 'GET', `/${uuid}/backups`)).body.items;
    expect(done.size_bytes).toBeGreaterThan(0);
    expect((await as(admin, 'POST', `/${uuid}/backups`, { mode: 'stop', compress: 'none' })).status).toBe(
      403,
    );
    expect((await as(admin, 'POST', `/${uuid}/backups`, { mode: 'fast' })).status).toBe(422);
    const restore = await as(admin, 'POST', `/${uuid}/backups/${id}/restore`);
    expect(restore.status, restore.text).toBe(200);
    expect(restore.body.status).toBe('restoring');
    await waitStatus('stopped');
    expect((await as(admin, 'DELETE', `/${uuid}/backups/${id}`)).body).toEqual({ id, deleted: true });
    expect(cluster.pve.cluster.backups.filter((b) => b.vmid === vmid)).toEqual([]);
    expect((await as(admin, 'POST', `/${uuid}/power`, { action: 'start' })).status).toBe(200);
    await waitStatus('running');
  });

  it('fails a backup still running after 6 hours (the injected clock moved)', async () => {
    const row = await db
      .insertInto('compute_backups')
      .values({
        instance_uuid: uuid,
        node: 'pve1',
        note: 'lost',
        mode: 'snapshot',
        compress: 'zstd',
        status: 'running',
        created_at: new Date(clock.now()),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await as(member, 'GET', `/${uuid}/backups`)).body.items[0].status).toBe('running');
    clock.advance(6 * 3600 * 1000);
    for (const who of [owner, admin, member, outsider]) who.token = await t.signIn(who.email);
    const items = (await as(member, 'GET', `/${uuid}/backups`)).body.items;
    expect(items).toEqual([expect.objectContaining({ id: Number(row.id), status: 'failed' })]);
    await as(admin, 'DELETE', `/${uuid}/backups/${Number(row.id)}`);
  });

  it('changes the host name, cloud-init, password and SSH keys', async () => {
    expect((await as(admin, 'PATCH', `/${uuid}/hostname`, { hostname: 'bad_host!' })).status).toBe(422);
    const renamed = await as(admin, 'PATCH', `/${uuid}/hostname`, {
      hostname: 'web2.example.com',
      reboot: true,
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ hostname: 'web2.example.com', name: 'web2.example.com' });
    expect(cluster.pve.cluster.vms.get(vmid)!.config.name).toBe('web2.example.com');
    expect((await as(admin, 'POST', `/${uuid}/cloud-init/regenerate`)).body).toEqual({ regenerated: true });

    const agent = await as(admin, 'POST', `/${uuid}/reset-password`);
    expect(agent.status, agent.text).toBe(200);
    expect(agent.body).toEqual({
      password: expect.stringMatching(/^[A-Za-z2-9]{20}$/),
      method: 'guest_agent',
    });
    cluster.engine.setAgentRunning(vmid, false);
    const ci = await as(admin, 'POST', `/${uuid}/reset-password`);
    expect(ci.body.method).toBe('cloud_init');
    expect(ci.body.password).not.toBe(agent.body.password);
    cluster.engine.setAgentRunning(vmid, true);
    expect(cluster.pve.cluster.vms.get(vmid)!.config.cipassword).not.toBe(ci.body.password);

    const key = ed25519PublicKey('alice@example.org');
    const keys = await as(admin, 'PUT', `/${uuid}/ssh-keys`, { ssh_keys: `${key}\n` });
    expect(keys.status, keys.text).toBe(200);
    expect(keys.body.ssh_keys).toEqual([
      {
        type: 'ssh-ed25519',
        fingerprint: expect.stringMatching(/^SHA256:[A-Za-z0-9+/]{43}$/),
        comment: 'alice@example.org',
      },
    ]);
    expect((await as(member, 'GET', `/${uuid}/config`)).body.ssh_keys).toEqual(keys.body.ssh_keys);
    const bad = await as(admin, 'PUT', `/${uuid}/ssh-keys`, {
      ssh_keys: `${key}\nssh-ed25519 AAAAnotakey x\n`,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({
      loc: ['body', 'ssh_keys'],
      msg: expect.stringContaining('line 2'),
    });
    const lying = `ssh-rsa ${key.split(' ')[1]}`;
    expect((await as(admin, 'PUT', `/${uuid}/ssh-keys`, { ssh_keys: lying })).status).toBe(422);
  });

  it('boots a rescue ISO and back', async () => {
    expect((await as(admin, 'POST', `/${uuid}/rescue/exit`)).status).toBe(409);
    expect(
      (await as(admin, 'POST', `/${uuid}/rescue/enter`, { iso_volid: 'local:iso/none.iso' })).status,
    ).toBe(422);
    const enter = await as(admin, 'POST', `/${uuid}/rescue/enter`, {
      iso_volid: 'local:iso/systemrescue-11.02-amd64.iso',
    });
    expect(enter.status, enter.text).toBe(200);
    expect(enter.body.status).toBe('rescue');
    expect(cluster.pve.cluster.vms.get(vmid)!.config.boot).toBe('order=ide2;scsi0;net0');
    expect(cluster.engine.cdrom(vmid)).toContain('systemrescue');
    const exit = await as(admin, 'POST', `/${uuid}/rescue/exit`);
    expect(exit.status, exit.text).toBe(200);
    expect(exit.body.status).toBe('running');
    expect(cluster.engine.cdrom(vmid)).toBeNull();
  });

  it('rebuilds from another template: the disk wiped, the instance running again', async () => {
    cluster.engine.writeDisk(vmid, 'marker');
    expect((await as(admin, 'POST', `/${uuid}/rebuild`, { template_id: 99 })).status).toBe(422);
    const rebuilt = await as(admin, 'POST', `/${uuid}/rebuild`, { template_id: 4 });
    expect(rebuilt.status, rebuilt.text).toBe(200);
    expect(rebuilt.body).toMatchObject({ status: 'rebuilding', template: { id: 4, name: 'Alpine 3.20' } });
    await waitStatus('running');
    expect(cluster.engine.diskContent(vmid)).not.toBe('marker');
    expect((await instance()).vmid).toBe(vmid);
  });

  it('answers 409 naming the state on every change while installing, rebuilding or restoring', async () => {
    for (const state of ['installing', 'rebuilding', 'restoring'] as const) {
      await db.updateTable('compute_instances').set({ state }).where('uuid', '=', uuid).execute();
      for (const [method, path, body] of instanceRoutes(1, 'snap1')) {
        const res = await as(owner, method, `/${uuid}${path}`, body);
        if (method === 'GET') continue;
        expect(res.status, `${method} ${path} while ${state}`).toBe(409);
        expect(res.body).toEqual({ detail: `Instance is ${state}` });
      }
      expect((await instance()).status).toBe(state);
    }
    await db.updateTable('compute_instances').set({ state: 'active' }).where('uuid', '=', uuid).execute();
  });

  it('lets members read and refuses them every change (403); another organization’s instance is a 404', async () => {
    for (const [method, path, body] of instanceRoutes(1, 'snap1')) {
      const res = await as(member, method, `/${uuid}${path}`, body);
      if (method === 'GET') expect([200, 409], `${method} ${path}`).toContain(res.status);
      else expect(res.status, `${method} ${path}`).toBe(403);
      const theirs = await t.request(method, `${V('other')}/${uuid}${path}`, {
        token: outsider.token,
        ...(body !== undefined ? { body } : {}),
      });
      expect(theirs.status, `other org: ${method} ${path}`).toBe(404);
      const ours = await t.request(method, `${V('acme')}/${uuid}${path}`, {
        token: outsider.token,
        ...(body !== undefined ? { body } : {}),
      });
      expect(ours.status, `not a member: ${method} ${path}`).toBe(404);
    }
    expect((await t.request('GET', V('other'), { token: outsider.token })).body).toEqual({
      items: [],
      total: 0,
    });
  });

  it('counts vps.power per instance: 24 a minute, then the budget’s 429', async () => {
    for (let i = 0; i < 24; i++) {
      const res = await as(admin, 'POST', `/${uuid}/power`, { action: 'reset' });
      expect(res.status, `${i}: ${res.text}`).toBe(200);
    }
    const refused = await as(owner, 'POST', `/${uuid}/power`, { action: 'reset' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.body).toEqual({
      detail: {
        error: 'rate_limited',
        message: expect.any(String),
        action: 'vps.power',
        retry_after_seconds: 60,
      },
    });
    clock.advance(61_000);
  });

  it('counts vps.backup, vps.backup_restore and vps.rebuild: 8 each, then 429', async () => {
    for (const who of [owner, admin, member, outsider]) who.token = await t.signIn(who.email);
    for (let i = 0; i < 8; i++) {
      const made = await as(admin, 'POST', `/${uuid}/backups`, {});
      expect(made.status, `backup ${i}: ${made.text}`).toBe(200);
      await eventually(
        async () => (await as(member, 'GET', `/${uuid}/backups`)).body.items[0].status === 'completed',
        15_000,
      );
      const restored = await as(admin, 'POST', `/${uuid}/backups/${made.body.id}/restore`);
      expect(restored.status, `restore ${i}: ${restored.text}`).toBe(200);
      await waitStatus('stopped');
      if (i === 7) {
        const more = await as(admin, 'POST', `/${uuid}/backups/${made.body.id}/restore`);
        expect(more.status).toBe(429);
        expect(more.body.detail.action).toBe('vps.backup_restore');
      }
      await as(admin, 'DELETE', `/${uuid}/backups/${made.body.id}`);
    }
    const ninth = await as(admin, 'POST', `/${uuid}/backups`, {});
    expect(ninth.status).toBe(429);
    expect(ninth.body.detail.action).toBe('vps.backup');
    // Past the window of the rebuild made above.
    clock.advance(601_000);
    for (const who of [owner, admin, member, outsider]) who.token = await t.signIn(who.email);
    for (let i = 0; i < 8; i++) {
      const res = await as(admin, 'POST', `/${uuid}/rebuild`, { template_id: 1 });
      expect(res.status, `rebuild ${i}: ${res.text}`).toBe(200);
      await waitStatus('running');
    }
    const refused = await as(admin, 'POST', `/${uuid}/rebuild`, { template_id: 1 });
    expect(refused.status).toBe(429);
    expect(refused.body.detail.action).toBe('vps.rebuild');
  }, 120_000);

  it('suspends (stopped, every change 409 `Instance is suspended`), unsuspends (started again)', async () => {
    const { uuid: other, serviceId } = await orderInstance(t, owner.token, 'acme', { hostname: 'susp' });
    const services = t.node.modules.find((m) => m.name === 'services') as ServicesModule;
    const staff = { userId: null, realm: 'staff', ip: null } as const;
    await services.lifecycle.suspend(serviceId, 'Abuse report', staff);
    const view = await instance(other);
    expect(view.status).toBe('suspended');
    expect(cluster.pve.cluster.vms.get(view.vmid)!.config).toBeDefined();
    expect((await as(member, 'GET', `/${other}/status`)).body.status).toBe('suspended');
    for (const [method, path, body] of instanceRoutes(1, 'snap1')) {
      const res = await as(owner, method, `/${other}${path}`, body);
      if (method === 'GET') continue;
      expect(res.status, `${method} ${path}`).toBe(409);
      expect(res.body).toEqual({ detail: 'Instance is suspended' });
    }
    await services.lifecycle.unsuspend(serviceId, staff);
    await waitStatus('running', other);
  });

  it('terminates: the VM destroyed, its backups deleted, the instance gone (404)', async () => {
    const { uuid: doomed, serviceId } = await orderInstance(t, owner.token, 'acme', { hostname: 'doomed' });
    const doomedVmid = (await instance(doomed)).vmid;
    const backup = await as(admin, 'POST', `/${doomed}/backups`, {});
    expect(backup.status, backup.text).toBe(200);
    await eventually(
      async () => (await as(member, 'GET', `/${doomed}/backups`)).body.items[0].status === 'completed',
      15_000,
    );
    expect(cluster.pve.cluster.backups.some((b) => b.vmid === doomedVmid)).toBe(true);
    const cancel = await t.request('POST', `/api/v1/services/${serviceId}/cancel`, { token: owner.token });
    expect(cancel.status, cancel.text).toBe(200);
    await eventually(async () => (await as(owner, 'GET', `/${doomed}`)).status === 404, 15_000);
    expect(cluster.pve.cluster.vms.has(doomedVmid)).toBe(false);
    expect(cluster.pve.cluster.backups.some((b) => b.vmid === doomedVmid)).toBe(false);
  });

  it('records the changes on the outbox (vps.*) and in the organization’s audit log', async () => {
    const names = new Set(
      (await db.selectFrom('events').select('name').where('name', 'like', 'vps.%').execute()).map(
        (r) => r.name,
      ),
    );
    for (const n of [
      'vps.created',
      'vps.installed',
      'vps.power',
      'vps.snapshot.created',
      'vps.snapshot.rolled_back',
      'vps.snapshot.deleted',
      'vps.backup.created',
      'vps.backup.completed',
      'vps.backup.failed',
      'vps.backup.restored',
      'vps.rebuilt',
      'vps.hostname.changed',
      'vps.ssh_keys.updated',
      'vps.password.reset',
      'vps.rescue.entered',
      'vps.rescue.exited',
      'vps.suspended',
      'vps.unsuspended',
      'vps.terminated',
    ])
      expect(names, n).toContain(n);
    const log = await t.request('GET', '/api/v1/orgs/acme/audit-log?limit=200', { token: owner.token });
    expect(log.status, log.text).toBe(200);
    const actions = new Set((log.body.items ?? log.body).map((e: { action: string }) => e.action));
    for (const a of [
      'compute.instance.power',
      'compute.snapshot.create',
      'compute.backup.restore',
      'compute.instance.rebuild',
      'compute.instance.ssh_keys',
    ])
      expect(actions, a).toContain(a);
    // Neither the password nor a console ticket reaches the outbox.
    const payloads = JSON.stringify(await db.selectFrom('events').select('payload').execute());
    expect(payloads).not.toMatch(/password"\s*:\s*"[A-Za-z2-9]{20}"|vncticket/);
  });
});

describe('cloud compute: listing', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 29, 12, 0, 0));
  let cluster: LocalCluster;
  let t: TestApp;

  beforeAll(async () => {
    cluster = await startLocalCluster(clock, { secondNodeTemplates: true });
    t = await startTestApp({ clock, env: cluster.env });
    const db = t.node.runtime.database.db as unknown as Db;
    // The templates per node (a cluster's vmids are unique across its nodes).
    for (let id = 1; id <= 5; id++)
      await db
        .updateTable('catalog_os_templates')
        .set({ pve_template_vmid: JSON.stringify({ pve1: 9000 + id, pve2: 9100 + id }) })
        .where('id', '=', id)
        .execute();
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.close();
  });

  it('costs one listVms call per node, never one per instance', async () => {
    const owner = await t.signUp();
    await createOrg(t, owner.token, 'list');
    const made: string[] = [];
    for (let i = 0; i < 4; i++)
      made.push((await orderInstance(t, owner.token, 'list', { hostname: `n${i}` })).uuid);
    const list0 = await t.request('GET', V('list'), { token: owner.token });
    expect(new Set(list0.body.items.map((i: { node: string }) => i.node))).toEqual(new Set(['pve1', 'pve2']));
    const before = cluster.pve.requests.length;
    const list = await t.request('GET', V('list'), { token: owner.token });
    expect(list.body.total).toBe(4);
    const calls = cluster.pve.requests.slice(before).map((r) => `${r.method} ${r.path}`);
    expect(calls.sort()).toEqual(['GET /nodes/pve1/qemu', 'GET /nodes/pve2/qemu']);
  });
});

describe('cloud compute: no cluster configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('offers the VPS plans as not orderable now, with the reason not_configured', async () => {
    const res = await t.request('GET', '/api/v1/products/43');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ is_orderable_now: false, availability_reason: 'not_configured' });
  });
});
