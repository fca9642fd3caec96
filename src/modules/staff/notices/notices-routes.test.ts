/**
 * The console's notices over real HTTP: an admin creates, changes (clearing times), posts updates
 * (one resolving the notice) and deletes; the public read shows what is live by the test clock,
 * for the customers' audiences and the asked placement only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { ORGS, addMember, createOrg, staffLogin } from '../../../testing/org-fixture.ts';
import { setStaffRole } from '../../../testing/staff-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

const T0 = Date.UTC(2026, 10, 30, 9);
const HOUR = 3_600_000;
const at = (ms: number) => new Date(ms).toISOString();

type Notice = {
  id: number;
  kind: string;
  audience: string;
  placement: string;
  status: string;
  starts_at: string | null;
  ends_at: string | null;
  resolved_at: string | null;
  updates: { body: string; state: string | null }[];
};

describe('staff notices', () => {
  const clock = new ManualClock(T0);
  let t: TestApp;
  let admin: string;
  let tier3: string;
  const base = `${ORGS}/notices-one/staff/notices`;
  const create = async (body: Record<string, unknown>) => {
    const res = await t.request('POST', base, { token: admin, body });
    expect(res.status, res.text).toBe(201);
    return res.body as Notice;
  };
  const live = async (query = '') => {
    const res = await t.request('GET', `${ORGS}/notices-one/notices${query}`);
    expect(res.status, res.text).toBe(200);
    return (res.body as Notice[]).map((n) => n.id).sort((a, b) => a - b);
  };

  beforeAll(async () => {
    t = await startTestApp({ clock, env: { LIMITS_EXEMPT: '127.0.0.0/8,::1' } });
    const owner = await t.signUp();
    const mate = await t.signUp();
    await createOrg(t, owner.token, 'notices-one');
    const added = await addMember(t, owner.token, 'notices-one', mate.email, 'member');
    admin = (await staffLogin(t, 'notices-one', owner.email)).token;
    await setStaffRole(t, admin, 'notices-one', added.user_id, 'tier3');
    tier3 = (await staffLogin(t, 'notices-one', mate.email)).token;
  }, 180_000);
  afterAll(async () => t?.close());

  it(
    'creates with defaults, patches with clears, resolves through an update, deletes',
    { timeout: 120_000 },
    async () => {
      const n = await create({ title: 'Hello' });
      expect(n).toMatchObject({
        kind: 'info',
        audience: 'all',
        placement: 'banner',
        status: 'draft',
        updates: [],
      });
      // Only console admins manage notices.
      for (const [method, path, body] of [
        ['GET', base, undefined],
        ['POST', base, { title: 'x' }],
        ['PATCH', `${base}/${n.id}`, { title: 'y' }],
        ['DELETE', `${base}/${n.id}`, undefined],
      ] as const) {
        const res = await t.request(method, path, { token: tier3, ...(body ? { body } : {}) });
        expect(res.status, `${method} ${path}`).toBe(403);
      }
      // Bad input names the field.
      const bad = await t.request('POST', base, { token: admin, body: { title: 'x', kind: 'party' } });
      expect(bad.status).toBe(422);
      expect(bad.text).toContain('kind');
      const backwards = await t.request('POST', base, {
        token: admin,
        body: { title: 'x', starts_at: at(T0 + HOUR), ends_at: at(T0) },
      });
      expect(backwards.status).toBe(422);
      expect(backwards.text).toContain('ends_at');

      const timed = await t.request('PATCH', `${base}/${n.id}`, {
        token: admin,
        body: { kind: 'incident', status: 'active', starts_at: at(T0 - HOUR), ends_at: at(T0 + HOUR) },
      });
      expect(timed.status, timed.text).toBe(200);
      expect(timed.body).toMatchObject({ kind: 'incident', status: 'active', starts_at: at(T0 - HOUR) });
      const cleared = await t.request('PATCH', `${base}/${n.id}`, {
        token: admin,
        body: { clear_starts_at: true, clear_ends_at: true, title: 'Outage' },
      });
      expect(cleared.status, cleared.text).toBe(200);
      expect(cleared.body).toMatchObject({
        title: 'Outage',
        starts_at: null,
        ends_at: null,
        status: 'active',
      });

      const step = await t.request('POST', `${base}/${n.id}/updates`, {
        token: admin,
        body: { body: 'Looking into it', state: 'investigating' },
      });
      expect(step.status, step.text).toBe(201);
      expect((step.body as Notice).status).toBe('active');
      const done = await t.request('POST', `${base}/${n.id}/updates`, {
        token: admin,
        body: { body: 'Fixed', state: 'resolved' },
      });
      expect(done.status, done.text).toBe(201);
      expect(done.body).toMatchObject({ status: 'resolved', resolved_at: at(T0) });
      expect((done.body as Notice).updates.map((u) => u.state)).toEqual(['investigating', 'resolved']);

      const resolved = await t.request('GET', `${base}?status=resolved`, { token: admin });
      expect((resolved.body as Notice[]).map((x) => x.id)).toEqual([n.id]);
      expect((await t.request('DELETE', `${base}/${n.id}`, { token: admin })).status).toBe(204);
      expect((await t.request('DELETE', `${base}/${n.id}`, { token: admin })).status).toBe(404);
      const gone = await t.request('POST', `${base}/${n.id}/updates`, { token: admin, body: { body: 'x' } });
      expect(gone.status).toBe(404);
    },
  );

  it(
    'shows in the public read what is live now, for customers, by placement',
    { timeout: 120_000 },
    async () => {
      const banner = await create({ title: 'Banner', status: 'active' });
      const staffOnly = await create({ title: 'Staff', status: 'active', audience: 'staff' });
      const forCustomers = await create({
        title: 'Status',
        status: 'active',
        audience: 'customers',
        placement: 'status_page',
      });
      const draft = await create({ title: 'Draft' });
      const window = await create({
        title: 'Maintenance',
        kind: 'maintenance',
        status: 'scheduled',
        placement: 'dashboard',
        starts_at: at(T0 + 2 * HOUR),
        ends_at: at(T0 + 4 * HOUR),
      });
      expect(staffOnly.id).toBeGreaterThan(0);
      expect(draft.id).toBeGreaterThan(0);
      expect(await live()).toEqual([banner.id, forCustomers.id]);
      expect(await live('?placement=status_page')).toEqual([forCustomers.id]);
      clock.set(T0 + 2 * HOUR);
      expect(await live()).toEqual([banner.id, forCustomers.id, window.id]);
      expect(await live('?placement=dashboard')).toEqual([window.id]);
      clock.set(T0 + 4 * HOUR);
      expect(await live('?placement=dashboard')).toEqual([]);
      // Updates show with the notice (the console token is valid at T0).
      clock.set(T0);
      const posted = await t.request('POST', `${base}/${banner.id}/updates`, {
        token: admin,
        body: { body: 'More soon' },
      });
      expect(posted.status, posted.text).toBe(201);
      const res = await t.request('GET', `${ORGS}/notices-one/notices?placement=banner`);
      expect(res.body).toMatchObject([{ id: banner.id, updates: [{ body: 'More soon', state: null }] }]);
      expect(res.body[0]).not.toHaveProperty('created_by');
      expect((await t.request('GET', `${ORGS}/no-such-org/notices`)).status).toBe(404);
      expect((await t.request('GET', `${ORGS}/notices-one/notices?placement=wall`)).status).toBe(422);
    },
  );
});
