import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORGS, addMember, createOrg } from '../../../testing/org-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

const ZONES = '/api/v1/dns/zones';

describe('DNS zones owned by an organization', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('opens an organization’s zone to its members (reads) and owner/admin (writes), and to nobody else', async () => {
    const owner = await t.signUp();
    const admin = await t.signUp();
    const member = await t.signUp();
    const outsider = await t.signUp();
    const org = await createOrg(t, owner.token, 'zone-org');
    await addMember(t, owner.token, 'zone-org', admin.email, 'admin');
    await addMember(t, owner.token, 'zone-org', member.email, 'member');

    expect(
      (
        await t.request('POST', ZONES, {
          token: member.token,
          body: { domain: 'm.example', org_slug: 'zone-org' },
        })
      ).status,
    ).toBe(403);
    const nope = await t.request('POST', ZONES, {
      token: outsider.token,
      body: { domain: 'o.example', org_slug: 'zone-org' },
    });
    expect(nope.status).toBe(404);
    expect(nope.body).toEqual({ detail: 'Organization not found' });
    const created = await t.request('POST', ZONES, {
      token: admin.token,
      body: { domain: 'zone-org.example', org_slug: 'zone-org' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ org_id: org.id, domain: 'zone-org.example' });
    const zone = created.body.id as number;

    // Reads: every member. Writes: owner and admin. Anyone else: 404, whatever the route.
    for (const user of [owner, admin, member]) {
      expect((await t.request('GET', `${ZONES}/${zone}`, { token: user.token })).status).toBe(200);
      expect((await t.request('GET', `${ZONES}/${zone}/records`, { token: user.token })).status).toBe(200);
      const listed = await t.request('GET', ZONES, { token: user.token });
      expect(listed.body.map((z: { id: number }) => z.id)).toContain(zone);
    }
    const record = { name: 'www', type: 'A', content: '192.0.2.7' };
    expect(
      (await t.request('POST', `${ZONES}/${zone}/records`, { token: admin.token, body: record })).status,
    ).toBe(201);
    const memberWrite = await t.request('POST', `${ZONES}/${zone}/records`, {
      token: member.token,
      body: { ...record, name: 'w2' },
    });
    expect(memberWrite.status).toBe(403);
    expect(
      (
        await t.request('PATCH', `${ZONES}/${zone}`, {
          token: member.token,
          body: { soa_email: 'a@b.example' },
        })
      ).status,
    ).toBe(403);
    expect((await t.request('DELETE', `${ZONES}/${zone}`, { token: member.token })).status).toBe(403);
    // Zone transfers hand the whole zone to whoever is allowed: configuring them is a write.
    const transfers = await t.request('PUT', `${ZONES}/${zone}/transfers`, {
      token: member.token,
      body: { allow_from: ['192.0.2.1/32'], tsig: null, notify: [] },
    });
    expect(transfers.status).toBe(403);
    for (const [method, path] of [
      ['GET', `${ZONES}/${zone}`],
      ['GET', `${ZONES}/${zone}/records`],
      ['GET', `${ZONES}/${zone}/export`],
      ['GET', `${ZONES}/${zone}/dnssec`],
      ['GET', `${ZONES}/${zone}/pools`],
      ['POST', `${ZONES}/${zone}/records`],
      ['DELETE', `${ZONES}/${zone}`],
    ] as const) {
      const res = await t.request(method, path, {
        token: outsider.token,
        ...(method === 'POST' ? { body: record } : {}),
      });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual({ detail: 'Zone not found' });
    }
    expect((await t.request('GET', ZONES, { token: outsider.token })).body).toEqual([]);
    const filtered = await t.request('GET', `${ZONES}?org_slug=zone-org`, { token: member.token });
    expect(filtered.body.map((z: { id: number }) => z.id)).toEqual([zone]);
    expect((await t.request('GET', `${ZONES}?org_slug=zone-org`, { token: outsider.token })).body).toEqual(
      [],
    );
    // Another owner cannot take a name inside it.
    expect(
      (await t.request('POST', ZONES, { token: outsider.token, body: { domain: 'sub.zone-org.example' } }))
        .status,
    ).toBe(409);
  });

  it('writes the audit log: a DNS record change and a member change, with actor, realm, action, ip', async () => {
    const owner = await t.signUp();
    const admin = await t.signUp();
    const me = (await t.request('GET', '/api/v1/auth/me', { token: admin.token })).body;
    const org = await createOrg(t, owner.token, 'audited-org');
    const member = await addMember(t, owner.token, 'audited-org', admin.email, 'admin');
    const zone = (
      await t.request('POST', ZONES, {
        token: admin.token,
        body: { domain: 'audited.example', org_slug: 'audited-org' },
      })
    ).body;
    const rec = await t.request('POST', `${ZONES}/${zone.id}/records`, {
      token: admin.token,
      body: { name: 'mail', type: 'TXT', content: '"v=spf1 -all"' },
    });
    await t.request('PATCH', `${ORGS}/audited-org/members/${member.id}`, {
      token: owner.token,
      body: { role: 'member' },
    });
    // The admin is a member now: the audit log is for owners and admins.
    expect((await t.request('GET', `${ORGS}/audited-org/audit-log`, { token: admin.token })).status).toBe(
      403,
    );
    const log = await t.request('GET', `${ORGS}/audited-org/audit-log`, { token: owner.token });
    expect(log.status).toBe(200);
    const actions = log.body.map((e: { action: string }) => e.action);
    expect(actions).toEqual(['org.member.update', 'dns.record.create', 'dns.zone.create', 'org.member.add']);
    const recordEntry = log.body.find((e: { action: string }) => e.action === 'dns.record.create');
    expect(recordEntry).toEqual({
      id: expect.any(Number),
      org_id: org.id,
      actor_user_id: me.id,
      actor_realm: 'main',
      action: 'dns.record.create',
      resource_type: 'record',
      resource_id: String(rec.body.id),
      ip: '127.0.0.1',
      created_at: expect.any(String),
    });
    expect(log.body[0]).toMatchObject({ resource_type: 'member', resource_id: String(member.id) });
    const page = await t.request('GET', `${ORGS}/audited-org/audit-log?limit=2&offset=1`, {
      token: owner.token,
    });
    expect(page.body.map((e: { action: string }) => e.action)).toEqual([
      'dns.record.create',
      'dns.zone.create',
    ]);
    for (const q of ['limit=0', 'limit=201', 'offset=-1']) {
      expect(
        (await t.request('GET', `${ORGS}/audited-org/audit-log?${q}`, { token: owner.token })).status,
        q,
      ).toBe(422);
    }
    expect(JSON.stringify(log.body)).not.toMatch(/password|secret|token/i);
  });
});
