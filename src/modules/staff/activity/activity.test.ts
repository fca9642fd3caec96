import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditSubjects } from '../../../kernel/audit/audit-log.ts';
import { orderInstance, startLocalCluster, type LocalCluster } from '../../../testing/compute-fixture.ts';
import { GAME_TRIAL } from '../../../testing/game-server-fixture.ts';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { ORGS, addMember, createOrg, staffLogin } from '../../../testing/org-fixture.ts';
import { setStaffRole } from '../../../testing/staff-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

const SLUG = 'act-one';
const REFUSAL = 'Name the customer, order or server you are looking at, or ask for your own actions';

interface Entry {
  id: number;
  action: string;
  actor_user_id: number | null;
  resource_type: string;
  resource_id: string | null;
  customer_id: number | null;
  service_id: number | null;
  server_uuid: string | null;
  created_at: string;
}

describe('the staff console’s activity', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 23, 50));
  let t: TestApp;
  /** Staff tokens and user ids by console role. */
  const token: Record<string, string> = {};
  const user: Record<string, number> = {};
  let orgId: number;
  /** Actions written by the test, by name: their entry ids. */
  const ids: Record<string, number> = {};
  let customerId: number;

  const record = async (
    actor: string,
    action: string,
    resourceId: string | number,
    subjects: AuditSubjects,
  ) => {
    await t.node.runtime.audit.record({
      orgId,
      actorUserId: user[actor]!,
      actorRealm: 'staff',
      action,
      resourceId,
      ip: '192.0.2.1',
      subjects,
    });
  };
  const activity = async (role: string, query = '') => {
    const res = await t.request('GET', `${ORGS}/${SLUG}/staff/activity${query}`, { token: token[role] });
    return res;
  };
  const actionsOf = async (role: string, query = ''): Promise<string[]> => {
    const res = await activity(role, query);
    expect(res.status, res.text).toBe(200);
    return (res.body.items as Entry[]).map((e) => e.action);
  };

  beforeAll(async () => {
    t = await startTestApp({ clock });
    const owner = await t.signUp();
    orgId = (await createOrg(t, owner.token, SLUG)).id;
    user.admin = (await t.request('GET', '/api/v1/auth/me', { token: owner.token })).body.id as number;
    token.admin = (await staffLogin(t, SLUG, owner.email)).token;
    for (const role of ['billing', 'tier3', 'tier2', 'tier1'] as const) {
      const mate = await t.signUp();
      user[role] = (await addMember(t, owner.token, SLUG, mate.email, 'member')).user_id;
      if (role !== 'tier1') await setStaffRole(t, token.admin, SLUG, user[role], role);
      token[role] = (await staffLogin(t, SLUG, mate.email)).token;
    }
    // Another organization's entry about a customer of the same number is never seen.
    const stranger = await t.signUp();
    const otherOrg = (await createOrg(t, stranger.token, 'act-other')).id;
    await t.node.runtime.audit.record({
      orgId: otherOrg,
      actorUserId: user.tier3!,
      actorRealm: 'staff',
      action: 'resellers.invoice.refund',
      resourceId: 9,
      ip: null,
      subjects: { customerId: 77 },
    });

    // The set-up's own entries (roles set) were written on 2026-06-01 before 23:59.
    clock.set(Date.UTC(2026, 5, 1, 23, 59)); // 2026-06-01
    await record('tier1', 'staff.note.create', 1, {});
    clock.advance(2 * 60_000); // 2026-06-02
    await record('tier3', 'resellers.service.suspend', 501, { serviceId: 501, customerId: 77 });
    await record('billing', 'resellers.invoice.refund', 9, { customerId: 77 });
    await record('tier2', 'compute.instance.power', 'c0ffee00-uuid-a', { serverUuid: 'c0ffee00-uuid-a' });
    // A route's own entry: an admin adds a storefront customer (its subject: that customer).
    const added = await t.request('POST', `${ORGS}/${SLUG}/customers`, {
      token: owner.token,
      body: { email: 'shopper@example.com', password: 'correct horse battery' },
    });
    expect(added.status, added.text).toBe(201);
    customerId = added.body.id as number;
    const all = await activity('admin', '?limit=200');
    for (const e of all.body.items as Entry[]) ids[e.action] ??= e.id;
  }, 180_000);
  afterAll(async () => t?.close());

  it('shows an admin the whole log of the organization, newest first, with every filter', async () => {
    const all = await activity('admin', '?limit=200');
    expect(all.status, all.text).toBe(200);
    const items = all.body.items as Entry[];
    expect(items.map((e) => e.id)).toEqual([...items.map((e) => e.id)].sort((a, b) => b - a));
    expect(items.slice(0, 5).map((e) => e.action)).toEqual([
      'org.customer.add',
      'compute.instance.power',
      'resellers.invoice.refund',
      'resellers.service.suspend',
      'staff.note.create',
    ]);
    // The other organization's entry is not here: one refund only.
    expect(items.filter((e) => e.action === 'resellers.invoice.refund')).toHaveLength(1);
    const routeEntry = items[0]!;
    expect(routeEntry).toMatchObject({
      actor_user_id: user.admin,
      resource_type: 'customer',
      resource_id: String(customerId),
      customer_id: customerId,
    });

    expect(await actionsOf('admin', '?customer_id=77')).toEqual([
      'resellers.invoice.refund',
      'resellers.service.suspend',
    ]);
    expect(await actionsOf('admin', `?customer_id=${customerId}`)).toEqual(['org.customer.add']);
    expect(await actionsOf('admin', '?service_id=501')).toEqual(['resellers.service.suspend']);
    expect(await actionsOf('admin', '?server_uuid=c0ffee00-uuid-a')).toEqual(['compute.instance.power']);
    expect(await actionsOf('admin', `?actor_id=${user.tier1}`)).toEqual(['staff.note.create']);
    expect(await actionsOf('admin', '?action=resellers.invoice.refund')).toEqual([
      'resellers.invoice.refund',
    ]);
    expect(await actionsOf('admin', '?resource_type=instance')).toEqual(['compute.instance.power']);
    expect(await actionsOf('admin', '?since=2026-06-02&until=2026-06-02')).toEqual([
      'org.customer.add',
      'compute.instance.power',
      'resellers.invoice.refund',
      'resellers.service.suspend',
    ]);
    expect((await actionsOf('admin', '?until=2026-06-01'))[0]).toBe('staff.note.create');
    expect(await actionsOf('admin', '?since=2026-06-03')).toEqual([]);
    expect(await actionsOf('admin', '?q=REFUND')).toEqual(['resellers.invoice.refund']);
    expect(await actionsOf('admin', '?q=uuid-a')).toEqual(['compute.instance.power']);
    expect(await actionsOf('admin', '?q=%25')).toEqual([]);
    expect(await actionsOf('admin', '?customer_id=77&actor_id=' + user.billing)).toEqual([
      'resellers.invoice.refund',
    ]);

    // Pages: limit and offset over the same order.
    const first = await activity('admin', '?limit=2');
    const second = await activity('admin', '?limit=2&offset=2');
    expect([first.body.limit, first.body.offset, first.body.has_more]).toEqual([2, 0, true]);
    expect([...first.body.items, ...second.body.items].map((e: Entry) => e.id)).toEqual(
      items.slice(0, 4).map((e) => e.id),
    );
    const last = await activity('admin', `?limit=2&offset=${items.length - 1}`);
    expect([last.body.items.length, last.body.has_more]).toEqual([1, false]);
    expect((await activity('admin')).body.limit).toBe(50);
  });

  it('answers 422 naming the field for bad dates, limits and offsets', async () => {
    for (const [query, field] of [
      ['?since=2026-02-30', 'since'],
      ['?until=yesterday', 'until'],
      ['?limit=201', 'limit'],
      ['?limit=0', 'limit'],
      ['?offset=-1', 'offset'],
      ['?customer_id=abc', 'customer_id'],
      ['?since=2026-06-02&until=2026-06-01', 'until'],
    ] as const) {
      const res = await activity('admin', query);
      expect(res.status, `${query}: ${res.text}`).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['query', field]);
    }
  });

  it('makes tier 3 and billing name a customer, order or server, or ask for their own actions', async () => {
    for (const role of ['tier3', 'billing']) {
      for (const query of ['', '?action=resellers.invoice.refund', `?actor_id=${user.admin}`]) {
        const refused = await activity(role, query);
        expect(refused.status, refused.text).toBe(403);
        expect(refused.body.detail).toBe(REFUSAL);
      }
      expect(await actionsOf(role, '?customer_id=77')).toEqual([
        'resellers.invoice.refund',
        'resellers.service.suspend',
      ]);
      expect(await actionsOf(role, '?service_id=501')).toEqual(['resellers.service.suspend']);
      expect(await actionsOf(role, '?server_uuid=c0ffee00-uuid-a')).toEqual(['compute.instance.power']);
    }
    expect(await actionsOf('tier3', `?actor_id=${user.tier3}`)).toEqual(['resellers.service.suspend']);
    expect(await actionsOf('billing', `?actor_id=${user.billing}`)).toEqual(['resellers.invoice.refund']);
  });

  it('shows tiers 1 and 2 only their own actions', async () => {
    expect(await actionsOf('tier1')).toEqual(['staff.note.create']);
    expect(await actionsOf('tier2')).toEqual(['compute.instance.power']);
    expect(await actionsOf('tier2', `?actor_id=${user.tier2}&server_uuid=c0ffee00-uuid-a`)).toEqual([
      'compute.instance.power',
    ]);
    // A customer's entries that are not theirs stay hidden.
    expect(await actionsOf('tier2', '?customer_id=77')).toEqual([]);
    const other = await activity('tier1', `?actor_id=${user.tier3}`);
    expect(other.status, other.text).toBe(403);
    expect(other.body.detail).toBe('Your console role shows only your own actions');
  });

  it('lists the actions that occurred; below tier 3 only the caller’s own', async () => {
    const names = async (role: string) => {
      const res = await t.request('GET', `${ORGS}/${SLUG}/staff/activity/actions`, { token: token[role] });
      expect(res.status, res.text).toBe(200);
      return res.body.actions as string[];
    };
    const all = await names('admin');
    expect(all).toEqual([...all].sort());
    expect(all).toEqual(
      expect.arrayContaining([
        'compute.instance.power',
        'org.customer.add',
        'resellers.invoice.refund',
        'resellers.service.suspend',
        'staff.note.create',
      ]),
    );
    expect(new Set(all).size).toBe(all.length);
    expect(await names('tier3')).toEqual(all);
    expect(await names('billing')).toEqual(all);
    expect(await names('tier2')).toEqual(['compute.instance.power']);
    expect(await names('tier1')).toEqual(['staff.note.create']);
    // A main-site token is not a console token.
    const owner = await t.request('GET', `${ORGS}/${SLUG}/staff/activity/actions`);
    expect(owner.status).toBe(401);
  });
});

describe('the staff console’s activity of VPS and game server routes', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 9));
  const slug = 'act-servers';
  let cluster: LocalCluster;
  let root: string;
  let t: TestApp;

  beforeAll(async () => {
    cluster = await startLocalCluster(clock);
    root = mkdtempSync(path.join(tmpdir(), 'act-game-servers-'));
    t = await startTestApp({
      clock,
      env: { ...cluster.env, GAME_SERVERS_ROOT: root, PAPER_API_URL: 'http://127.0.0.1:9' },
    });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await cluster?.close();
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  it('records the instance’s and the server’s uuid of their routes as server_uuid', async () => {
    const owner = await t.signUp();
    const mate = await t.signUp();
    await createOrg(t, owner.token, slug);
    await addMember(t, owner.token, slug, mate.email, 'member');
    // A VPS of the organization, rebooted.
    const vps = await orderInstance(t, owner.token, slug, { hostname: 'act1' });
    const power = await t.request('POST', `${ORGS}/${slug}/vps/${vps.uuid}/power`, {
      token: owner.token,
      body: { action: 'reboot' },
    });
    expect(power.status, power.text).toBe(200);
    // A game server of the organization, a user added to it.
    const locations = (await t.request('GET', '/api/v1/locations')).body as { id: number; code: string }[];
    const ordered = await t.request('POST', '/api/v1/services/order', {
      token: owner.token,
      body: {
        ...GAME_TRIAL,
        org_slug: slug,
        location_id: locations.find((l) => l.code === 'FRA')!.id,
        config: { specialization: 'minecraft-paper' },
      },
    });
    expect(ordered.status, ordered.text).toBe(201);
    const servers = await t.request('GET', '/api/v1/client/servers', { token: owner.token });
    const server = (servers.body.items as { uuid: string; service_id: number }[]).find(
      (s) => s.service_id === ordered.body.id,
    )!;
    const added = await t.request('POST', `/api/v1/client/servers/${server.uuid}/users`, {
      token: owner.token,
      body: { email: mate.email, permissions: ['software.read'] },
    });
    expect(added.status, added.text).toBe(200);

    const admin = (await staffLogin(t, slug, owner.email)).token;
    const byServer = async (uuid: string) => {
      const res = await t.request('GET', `${ORGS}/${slug}/staff/activity?server_uuid=${uuid}`, {
        token: admin,
      });
      expect(res.status, res.text).toBe(200);
      return (res.body.items as Entry[]).map((e) => [e.action, e.server_uuid]);
    };
    expect(await byServer(vps.uuid)).toEqual([['compute.instance.power', vps.uuid]]);
    expect(await byServer(server.uuid)).toEqual([['game-servers.user.create', server.uuid]]);
  }, 180_000);
});
