import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryUdp } from '../../../testing/dns-client.ts';
import { ORGS, addMember, createOrg, staffLogin, storefrontCustomer } from '../../../testing/org-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import { reactivateOrganization } from '../../orgs/index.ts';

const ZONES = '/api/v1/dns/zones';

describe('organization deletion', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  const rcodeOf = async (name: string): Promise<string | undefined> => {
    const q = dnsPacket.encode({
      type: 'query',
      id: 9,
      flags: 0,
      questions: [{ type: 'SOA', class: 'IN', name }],
    });
    const flags = (await queryUdp(q, { host: '127.0.0.1', port: t.node.dns!.udpPort })).decoded?.flags;
    return flags === undefined
      ? undefined
      : (['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'][flags & 0xf] ?? 'OTHER');
  };
  const until = async (check: () => Promise<boolean>): Promise<void> => {
    const deadline = Date.now() + 3000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('not in time');
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('checks in order: confirm (422), then live products (409), then the owner (403)', async () => {
    const owner = await t.signUp();
    const admin = await t.signUp();
    await createOrg(t, owner.token, 'order-org');
    await addMember(t, owner.token, 'order-org', admin.email, 'admin');
    const zone = await t.request('POST', ZONES, {
      token: owner.token,
      body: { domain: 'order-org.example', org_slug: 'order-org' },
    });
    expect(zone.status).toBe(201);

    // Everything wrong at once: the confirm mismatch answers first (case and spaces ignored otherwise).
    const mismatch = await t.request('DELETE', `${ORGS}/order-org?confirm=other`, { token: admin.token });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.detail[0]).toMatchObject({ loc: ['query', 'confirm'] });
    expect((await t.request('DELETE', `${ORGS}/order-org`, { token: admin.token })).status).toBe(422);

    const products = await t.request('DELETE', `${ORGS}/order-org?confirm=%20ORDER-org%20`, {
      token: admin.token,
    });
    expect(products.status).toBe(409);
    const expected = [
      { type: 'dns_zone', id: zone.body.id, name: 'order-org.example', ends: 'stops answering' },
    ];
    expect(products.body).toEqual({
      detail: { message: 'Organization still has live products', products: expected },
    });
    expect((await t.request('GET', `${ORGS}/order-org/deletion`, { token: admin.token })).body).toEqual({
      products: expected,
    });

    // The owner removes the zone first: it stops answering.
    expect(await rcodeOf('order-org.example')).toBe('NOERROR');
    expect((await t.request('DELETE', `${ZONES}/${zone.body.id}`, { token: owner.token })).status).toBe(204);
    await until(async () => (await rcodeOf('order-org.example')) === 'REFUSED');

    const byAdmin = await t.request('DELETE', `${ORGS}/order-org?confirm=order-org`, { token: admin.token });
    expect(byAdmin.status).toBe(403);
    expect((await t.request('GET', `${ORGS}/order-org`, { token: admin.token })).body.status).toBe('active');
  });

  it('deletes: every staff and storefront session ends at once, it leaves every list, its routes answer 404; staff can reactivate it', async () => {
    const owner = await t.signUp();
    const member = await t.signUp();
    await createOrg(t, owner.token, 'doomed-org');
    await addMember(t, owner.token, 'doomed-org', member.email, 'member');
    const staff = await staffLogin(t, 'doomed-org', member.email);
    const customer = await storefrontCustomer(t, 'doomed-org', 'last-buyer@example.com');
    expect((await t.request('GET', `${ORGS}/doomed-org/staff/me`, { token: staff.token })).status).toBe(200);
    expect((await t.request('GET', `${ORGS}/doomed-org/auth/me`, { token: customer.token })).status).toBe(
      200,
    );

    const res = await t.request('DELETE', `${ORGS}/doomed-org?confirm=doomed-org`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ slug: 'doomed-org', status: 'deleted' });

    expect((await t.request('GET', `${ORGS}/doomed-org/staff/me`, { token: staff.token })).status).toBe(401);
    expect((await t.request('GET', `${ORGS}/doomed-org/auth/me`, { token: customer.token })).status).toBe(
      401,
    );
    const refreshStaff = await t.request('POST', `${ORGS}/doomed-org/staff/auth/refresh`, {
      body: { refresh_token: staff.refreshToken },
    });
    expect(refreshStaff.status).toBe(404);
    const refreshShop = await t.request('POST', `${ORGS}/doomed-org/auth/refresh`, {
      body: { refresh_token: customer.refreshToken },
    });
    expect(refreshShop.status).toBe(404);
    expect((await t.request('GET', ORGS, { token: owner.token })).body).toEqual([]);
    expect((await t.request('GET', ORGS, { token: member.token })).body).toEqual([]);
    for (const path of ['', '/members', '/audit-log', '/deletion']) {
      expect((await t.request('GET', `${ORGS}/doomed-org${path}`, { token: owner.token })).status, path).toBe(
        404,
      );
    }
    // The slug stays taken: nothing is erased.
    expect(
      (await t.request('POST', ORGS, { token: member.token, body: { slug: 'doomed-org', name: 'x' } }))
        .status,
    ).toBe(409);

    expect(await reactivateOrganization(t.node.runtime, 'doomed-org')).toBe(
      'doomed-org: active (was deleted)',
    );
    const back = await t.request('GET', `${ORGS}/doomed-org`, { token: owner.token });
    expect(back.status).toBe(200);
    expect(back.body.status).toBe('active');
    // Sessions ended by the deletion stay ended.
    expect((await t.request('GET', `${ORGS}/doomed-org/staff/me`, { token: staff.token })).status).toBe(401);
  });
});
