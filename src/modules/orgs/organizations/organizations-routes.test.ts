import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORGS, addMember, createOrg } from '../../../testing/org-fixture.ts';
import { mailTo, startSmtpSink, type SmtpSink } from '../../../testing/smtp-sink.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

const NOT_FOUND = { detail: 'Organization not found' };

describe('organizations, members and roles', () => {
  let smtp: SmtpSink;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp({ env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('creates an active organization with the default tier, billing mode, fee and limits; the creator owns it', async () => {
    const owner = await t.signUp();
    const res = await t.request('POST', ORGS, {
      token: owner.token,
      body: { slug: 'acme-hosting', name: 'Acme Hosting' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      slug: 'acme-hosting',
      name: 'Acme Hosting',
      owner_user_id: expect.any(Number),
      parent_org_id: null,
      tier: 'standard',
      status: 'active',
      billing_mode: 'platform_mor',
      platform_fee_percent: '0.00',
      max_customers: 1000,
      max_services: 1000,
      max_sub_resellers: 0,
      max_api_calls_month: 1000000,
      max_custom_products: 100,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      my_role: 'owner',
    });
    const me = await t.request('GET', '/api/v1/auth/me', { token: owner.token });
    expect(res.body.owner_user_id).toBe(me.body.id);
    const list = await t.request('GET', ORGS, { token: owner.token });
    expect(list.body).toEqual([res.body]);
    const taken = await t.request('POST', ORGS, {
      token: (await t.signUp()).token,
      body: { slug: 'acme-hosting', name: 'Other' },
    });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ detail: 'Organization slug already taken' });
  });

  it('refuses slugs outside 3–40 characters of a-z0-9- or with a - at either end', async () => {
    const { token } = await t.signUp();
    for (const slug of ['ab', 'a'.repeat(41), '-lead', 'trail-', 'Upper', 'under_score', 'sp ace']) {
      const res = await t.request('POST', ORGS, { token, body: { slug, name: 'x' } });
      expect(res.status, slug).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', 'slug']);
    }
    for (const slug of ['abc', 'a'.repeat(40), 'a-b-9']) {
      expect((await t.request('POST', ORGS, { token, body: { slug, name: 'x' } })).status, slug).toBe(201);
    }
  });

  it('lets owner and admin change name, billing mode and tier; refuses unknown words; members read only', async () => {
    const owner = await t.signUp();
    const admin = await t.signUp();
    const member = await t.signUp();
    await createOrg(t, owner.token, 'patch-org');
    await addMember(t, owner.token, 'patch-org', admin.email, 'admin');
    await addMember(t, owner.token, 'patch-org', member.email, 'member');
    const byAdmin = await t.request('PATCH', `${ORGS}/patch-org`, {
      token: admin.token,
      body: { name: 'Renamed', billing_mode: 'merchant_of_record', tier: 'pro' },
    });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toMatchObject({
      name: 'Renamed',
      billing_mode: 'merchant_of_record',
      tier: 'pro',
      my_role: 'admin',
    });
    const nulls = await t.request('PATCH', `${ORGS}/patch-org`, {
      token: owner.token,
      body: { name: null, tier: null },
    });
    expect(nulls.body).toMatchObject({ name: 'Renamed', tier: 'pro', my_role: 'owner' });
    for (const body of [{ billing_mode: 'barter' }, { tier: 'gold' }, { name: '' }]) {
      const res = await t.request('PATCH', `${ORGS}/patch-org`, { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', Object.keys(body)[0]]);
    }
    expect((await t.request('GET', `${ORGS}/patch-org`, { token: member.token })).body).toMatchObject({
      my_role: 'member',
    });
    const byMember = await t.request('PATCH', `${ORGS}/patch-org`, {
      token: member.token,
      body: { name: 'Mine' },
    });
    expect(byMember.status).toBe(403);
  });

  it('answers 404 Organization not found to a non-member on every route of the organization', async () => {
    const owner = await t.signUp();
    const outsider = await t.signUp();
    await createOrg(t, owner.token, 'private-org');
    const routes: [string, string, unknown?][] = [
      ['GET', ''],
      ['PATCH', '', { name: 'x' }],
      ['DELETE', '?confirm=private-org'],
      ['GET', '/deletion'],
      ['GET', '/members'],
      ['POST', '/members', { email: outsider.email, role: 'member' }],
      ['PATCH', '/members/1', { role: 'admin' }],
      ['DELETE', '/members/1'],
      ['GET', '/audit-log'],
    ];
    for (const [method, suffix, body] of routes) {
      const res = await t.request(method, `${ORGS}/private-org${suffix}`, {
        token: outsider.token,
        ...(body ? { body } : {}),
      });
      expect(res.status, `${method} ${suffix}`).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
      const none = await t.request(method, `${ORGS}/no-such-org${suffix}`, {
        token: owner.token,
        ...(body ? { body } : {}),
      });
      expect(none.status, `${method} ${suffix} of no organization`).toBe(404);
    }
  });

  it('adds members by e-mail with a notice, refuses unknown users and duplicates', async () => {
    const owner = await t.signUp();
    const other = await t.signUp();
    await createOrg(t, owner.token, 'team-org', 'Team Org');
    const added = await t.request('POST', `${ORGS}/team-org/members`, {
      token: owner.token,
      body: { email: other.email, role: 'admin' },
    });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      id: expect.any(Number),
      user_id: expect.any(Number),
      email: other.email,
      role: 'admin',
      created_at: expect.any(String),
    });
    const notice = await smtp.waitFor((m) => mailTo(m) === other.email.toLowerCase());
    expect(notice.subject).toBe('You were added to Team Org');
    const unknown = await t.request('POST', `${ORGS}/team-org/members`, {
      token: owner.token,
      body: { email: 'ghost@example.com', role: 'member' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'User not found' });
    const twice = await t.request('POST', `${ORGS}/team-org/members`, {
      token: owner.token,
      body: { email: other.email, role: 'member' },
    });
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ detail: 'Already a member' });
    const asOwner = await t.request('POST', `${ORGS}/team-org/members`, {
      token: owner.token,
      body: { email: other.email, role: 'owner' },
    });
    expect(asOwner.status).toBe(422);
    const list = await t.request('GET', `${ORGS}/team-org/members`, { token: other.token });
    expect(list.body.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      [owner.email, 'owner'],
      [other.email, 'admin'],
    ]);
    expect(
      (await t.request('GET', ORGS, { token: other.token })).body.map(
        (o: { slug: string; my_role: string }) => [o.slug, o.my_role],
      ),
    ).toEqual([['team-org', 'admin']]);
  });

  it('keeps one owner: only the owner moves ownership, admins cannot touch the owner, nobody removes the owner', async () => {
    const owner = await t.signUp();
    const admin = await t.signUp();
    const member = await t.signUp();
    await createOrg(t, owner.token, 'roles-org');
    const a = await addMember(t, owner.token, 'roles-org', admin.email, 'admin');
    const m = await addMember(t, owner.token, 'roles-org', member.email, 'member');
    const members = (await t.request('GET', `${ORGS}/roles-org/members`, { token: owner.token })).body as {
      id: number;
      role: string;
    }[];
    const ownerMember = members.find((x) => x.role === 'owner')!;

    // A member manages nothing.
    expect(
      (
        await t.request('PATCH', `${ORGS}/roles-org/members/${a.id}`, {
          token: member.token,
          body: { role: 'member' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.request('POST', `${ORGS}/roles-org/members`, {
          token: member.token,
          body: { email: admin.email, role: 'member' },
        })
      ).status,
    ).toBe(403);
    expect(
      (await t.request('DELETE', `${ORGS}/roles-org/members/${a.id}`, { token: member.token })).status,
    ).toBe(403);
    // An admin manages members but not the owner, and cannot make an owner.
    expect(
      (
        await t.request('PATCH', `${ORGS}/roles-org/members/${m.id}`, {
          token: admin.token,
          body: { role: 'admin' },
        })
      ).body,
    ).toMatchObject({ role: 'admin' });
    expect(
      (
        await t.request('PATCH', `${ORGS}/roles-org/members/${m.id}`, {
          token: admin.token,
          body: { role: 'member' },
        })
      ).body,
    ).toMatchObject({ role: 'member' });
    expect(
      (
        await t.request('PATCH', `${ORGS}/roles-org/members/${ownerMember.id}`, {
          token: admin.token,
          body: { role: 'member' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.request('PATCH', `${ORGS}/roles-org/members/${m.id}`, {
          token: admin.token,
          body: { role: 'owner' },
        })
      ).status,
    ).toBe(403);
    const removeOwner = await t.request('DELETE', `${ORGS}/roles-org/members/${ownerMember.id}`, {
      token: admin.token,
    });
    expect(removeOwner.status).toBe(409);
    expect(
      (await t.request('DELETE', `${ORGS}/roles-org/members/${ownerMember.id}`, { token: owner.token }))
        .status,
    ).toBe(409);
    expect(
      (
        await t.request('PATCH', `${ORGS}/roles-org/members/${ownerMember.id}`, {
          token: owner.token,
          body: { role: 'admin' },
        })
      ).status,
    ).toBe(409);

    // The owner hands ownership to the admin and becomes an admin.
    const moved = await t.request('PATCH', `${ORGS}/roles-org/members/${a.id}`, {
      token: owner.token,
      body: { role: 'owner' },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ role: 'owner', email: admin.email });
    const after = (await t.request('GET', `${ORGS}/roles-org/members`, { token: owner.token })).body as {
      email: string;
      role: string;
    }[];
    expect(after.filter((x) => x.role === 'owner').map((x) => x.email)).toEqual([admin.email]);
    expect(after.find((x) => x.email === owner.email)!.role).toBe('admin');
    const org = await t.request('GET', `${ORGS}/roles-org`, { token: admin.token });
    expect(org.body.my_role).toBe('owner');
    expect(org.body.owner_user_id).toBe(a.user_id);

    // A member may leave; then the organization is gone for them.
    expect(
      (await t.request('DELETE', `${ORGS}/roles-org/members/${m.id}`, { token: member.token })).body,
    ).toEqual({ id: m.id, deleted: true });
    expect((await t.request('GET', `${ORGS}/roles-org`, { token: member.token })).status).toBe(404);
    expect(
      (await t.request('DELETE', `${ORGS}/roles-org/members/999999`, { token: admin.token })).status,
    ).toBe(404);
  });
});
