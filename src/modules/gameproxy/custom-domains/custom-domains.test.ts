import dnsPacket from 'dns-packet';
import { Registry } from '../../../kernel/module/registry.ts';
import type { LiveProductSource } from '../../orgs/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createZone, ZONES } from '../../../testing/dns-api-fixture.ts';
import { queryUdp } from '../../../testing/dns-client.ts';
import { eventually } from '../../../testing/eventually.ts';
import { freePort } from '../../../testing/free-port.ts';
import { addMember, createOrg } from '../../../testing/org-fixture.ts';
import { insertGameRoute, userIdOf } from '../../../testing/gameproxy-fixture.ts';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import type { DnsModule, ManagedRecords } from '../../dns/index.ts';
import type { OrgsModule } from '../../orgs/index.ts';
import type { ServicesModule } from '../../services/index.ts';
import { gameproxyContext } from '../gameproxy-context.ts';
import { routesChanged } from '../gameproxy-events.ts';
import type { GameproxyModule } from '../gameproxy-module.ts';
import { CustomDomainsService } from './custom-domains-service.ts';

const BASE = 'play.test.example';
const DAY = 24 * 3600_000;
const domainOf = (routeId: number): string => `/api/v1/gameproxy/routes/${routeId}/custom-domain`;

describe('custom domains of game routes, checked through the platform’s own DNS server', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 1));
  let t: TestApp;
  let records: ManagedRecords;
  let gameproxy: GameproxyModule;
  let dnsPort: number;
  const changed: number[][] = [];

  /** A fresh account with a route `<sub>.play.test.example`. */
  const accountWithRoute = async (sub: string) => {
    const { token, email } = await t.signUp();
    const userId = await userIdOf(t, token);
    const routeId = await insertGameRoute(t, { user_id: userId, subdomain: sub, base_domain: BASE });
    return { token, email, userId, routeId };
  };

  /** The CNAME targets the app's DNS server answers for `name`. */
  const cnameAt = async (name: string): Promise<string[]> => {
    const q = dnsPacket.encode({
      type: 'query',
      id: 9,
      flags: 0,
      questions: [{ type: 'CNAME', class: 'IN', name }],
    });
    const res = await queryUdp(q, { host: '127.0.0.1', port: dnsPort });
    return (res.decoded?.answers ?? []).flatMap((a) => (a.type === 'CNAME' ? [a.data] : []));
  };

  /** A zone made over the API, once the DNS server answers for it (it reaches the server through the bus). */
  const servedZone = async (token: string, domain: string): ReturnType<typeof createZone> => {
    const zone = await createZone(t, token, domain);
    const soa = dnsPacket.encode({
      type: 'query',
      id: 10,
      flags: 0,
      questions: [{ type: 'SOA', class: 'IN', name: domain }],
    });
    await eventually(async () =>
      ((await queryUdp(soa, { host: '127.0.0.1', port: dnsPort })).decoded?.answers ?? []).some(
        (a) => a.type === 'SOA',
      ),
    );
    return zone;
  };

  const addCname = async (token: string, zoneId: number, name: string, target: string): Promise<number> => {
    const res = await t.request('POST', `${ZONES}/${zoneId}/records`, {
      token,
      body: { name, type: 'CNAME', content: `${target}.` },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  };

  beforeAll(async () => {
    dnsPort = await freePort();
    t = await startTestApp({
      clock,
      env: {
        DNS_PORT: String(dnsPort),
        GAMEPROXY_BASE_DOMAINS: BASE,
        GAMEPROXY_CHECK_RESOLVER: `127.0.0.1:${dnsPort}`,
      },
    });
    expect(t.node.dns?.udpPort).toBe(dnsPort);
    records = (t.node.modules.find((m) => m.name === 'dns') as DnsModule).managedRecords;
    gameproxy = t.node.modules.find((m) => m.name === 'gameproxy') as GameproxyModule;
    await t.node.runtime.events.subscribe(routesChanged, (e) => changed.push([...e.routeIds]));
  }, 30_000);
  afterAll(async () => t?.close());

  it('a zone of the caller’s hosted here: the CNAME is published and the domain verified at once', async () => {
    const a = await accountWithRoute('alpha');
    const zone = await servedZone(a.token, 'alpha-owner.example');
    const res = await t.request('POST', domainOf(a.routeId), {
      token: a.token,
      body: { domain: 'Alpha-Owner.example.', subdomain: 'mc', include_in_list: true },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      domain: 'alpha-owner.example',
      fqdn: 'mc.alpha-owner.example',
      status: 'verified',
      cname_target: `alpha.${BASE}`,
      checked_at: new Date(clock.now()).toISOString(),
      include_in_list: true,
      last_error: null,
    });
    expect(await records.list('gameproxy', zone.id)).toMatchObject([
      { name: 'mc.alpha-owner.example', type: 'CNAME', content: `alpha.${BASE}.` },
    ]);
    await eventually(async () => (await cnameAt('mc.alpha-owner.example')).join() === `alpha.${BASE}`);
    await eventually(async () => changed.some((ids) => ids.includes(a.routeId)));
    const got = await t.request('GET', domainOf(a.routeId), { token: a.token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);

    // One per route, and a name on one route only.
    const again = await t.request('POST', domainOf(a.routeId), {
      token: a.token,
      body: { domain: 'other.example' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: 'The route already has a custom domain' });
    const b = await accountWithRoute('alpha-two');
    const taken = await t.request('POST', domainOf(b.routeId), {
      token: b.token,
      body: { domain: 'alpha-owner.example', subdomain: 'MC' },
    });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ detail: 'Custom domain already used by another route' });
  });

  it('the caller’s zone with their own records at the name: looked up instead of published', async () => {
    const a = await accountWithRoute('kilo');
    const zone = await servedZone(a.token, 'kilo-owner.example');
    await addCname(a.token, zone.id, 'mc', `kilo.${BASE}`);
    const web = await t.request('POST', `${ZONES}/${zone.id}/records`, {
      token: a.token,
      body: { name: 'web', type: 'A', content: '192.0.2.7' },
    });
    expect(web.status, web.text).toBe(201);
    await eventually(async () => (await cnameAt('mc.kilo-owner.example')).length === 1);

    const own = await t.request('POST', domainOf(a.routeId), {
      token: a.token,
      body: { domain: 'kilo-owner.example', subdomain: 'mc' },
    });
    expect(own.status, own.text).toBe(201);
    expect(own.body).toMatchObject({ status: 'verified', last_error: null });
    expect(await records.list('gameproxy', zone.id)).toEqual([]);

    const b = await accountWithRoute('kilo-two');
    const other = await t.request('POST', domainOf(b.routeId), {
      token: b.token,
      body: { domain: 'kilo-owner.example', subdomain: 'web' },
    });
    expect(other.body).toMatchObject({
      status: 'pending',
      last_error: 'No CNAME record at web.kilo-owner.example',
    });
  });

  it('another account’s zone: pending until its holder adds the CNAME, then verified by verify', async () => {
    const a = await accountWithRoute('bravo');
    const holder = await t.signUp();
    const zone = await servedZone(holder.token, 'bravo-holder.example');
    const res = await t.request('POST', domainOf(a.routeId), {
      token: a.token,
      body: { domain: 'bravo-holder.example', subdomain: 'join' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      fqdn: 'join.bravo-holder.example',
      status: 'pending',
      cname_target: `bravo.${BASE}`,
      last_error: 'join.bravo-holder.example does not exist (NXDOMAIN)',
    });
    // Nothing was published in a zone the caller does not hold.
    expect(await records.list('gameproxy', zone.id)).toEqual([]);

    await addCname(holder.token, zone.id, 'join', `BRAVO.${BASE}`);
    await eventually(async () => (await cnameAt('join.bravo-holder.example')).length === 1);
    const verified = await t.request('POST', `${domainOf(a.routeId)}/verify`, { token: a.token });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toMatchObject({ status: 'verified', last_error: null });
  });

  it('a CNAME pointing elsewhere: pending, saying what it found', async () => {
    const a = await accountWithRoute('charlie');
    const holder = await t.signUp();
    const zone = await servedZone(holder.token, 'charlie-holder.example');
    await addCname(holder.token, zone.id, 'mc', 'elsewhere.example');
    await eventually(async () => (await cnameAt('mc.charlie-holder.example')).length === 1);
    const res = await t.request('POST', domainOf(a.routeId), {
      token: a.token,
      body: { domain: 'charlie-holder.example', subdomain: 'mc' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      status: 'pending',
      last_error: `The CNAME at mc.charlie-holder.example points at elsewhere.example, not charlie.${BASE}`,
    });
    const verify = await t.request('POST', `${domainOf(a.routeId)}/verify`, { token: a.token });
    expect(verify.body).toMatchObject({ status: 'pending' });
  });

  it('daily re-checks: a verified domain whose CNAME went fails at the third miss, and comes back', async () => {
    const a = await accountWithRoute('delta');
    const holder = await t.signUp();
    const zone = await servedZone(holder.token, 'delta-holder.example');
    const recordId = await addCname(holder.token, zone.id, 'mc', `delta.${BASE}`);
    await eventually(async () => (await cnameAt('mc.delta-holder.example')).length === 1);
    const linked = await t.request('POST', domainOf(a.routeId), {
      token: a.token,
      body: { domain: 'delta-holder.example', subdomain: 'mc' },
    });
    expect(linked.body).toMatchObject({ status: 'verified' });

    expect(
      (await t.request('DELETE', `${ZONES}/${zone.id}/records/${recordId}`, { token: holder.token })).status,
    ).toBe(204);
    await eventually(async () => (await cnameAt('mc.delta-holder.example')).length === 0);

    // Not due before a day has passed.
    clock.advance(DAY - 60_000);
    await gameproxy.checkDueDomains();
    const status = async () => {
      const token = await t.signIn(a.email);
      return (await t.request('GET', domainOf(a.routeId), { token })).body;
    };
    expect(await status()).toMatchObject({ status: 'verified', last_error: null });

    changed.length = 0;
    for (const miss of [1, 2]) {
      clock.advance(DAY);
      expect(await gameproxy.checkDueDomains()).toBeGreaterThanOrEqual(1);
      expect(await status()).toMatchObject({
        status: 'verified',
        last_error: `mc.delta-holder.example does not exist (NXDOMAIN) (${miss} of 3 daily checks before the domain fails)`,
      });
    }
    expect(changed.flat()).not.toContain(a.routeId);
    clock.advance(DAY);
    await gameproxy.checkDueDomains();
    expect(await status()).toMatchObject({
      status: 'failed',
      checked_at: new Date(clock.now()).toISOString(),
      last_error: 'mc.delta-holder.example does not exist (NXDOMAIN) (3 daily checks in a row)',
    });
    await eventually(async () => changed.some((ids) => ids.includes(a.routeId)));

    // Failed domains are looked at every 10 minutes: the CNAME back, verified again.
    await addCname(await t.signIn(holder.email), zone.id, 'mc', `delta.${BASE}`);
    await eventually(async () => (await cnameAt('mc.delta-holder.example')).length === 1);
    clock.advance(5 * 60_000);
    await gameproxy.checkDueDomains();
    expect(await status()).toMatchObject({ status: 'failed' });
    clock.advance(5 * 60_000);
    await gameproxy.checkDueDomains();
    expect(await status()).toMatchObject({ status: 'verified', last_error: null });
  }, 30_000);

  it('budgets: 12 links and 12 verifications an hour per route, in the budget shape', async () => {
    const a = await accountWithRoute('echo');
    const stranger = await t.signUp();
    // Calls on another's route are 404 and use nothing of the route's budget.
    for (let i = 0; i < 13; i++) {
      const res = await t.request('POST', domainOf(a.routeId), {
        token: stranger.token,
        body: { domain: 'x.example' },
      });
      expect(res.status).toBe(404);
    }
    const first = await t.request('POST', domainOf(a.routeId), {
      token: a.token,
      body: { domain: 'echo-none.example' },
    });
    expect(first.status, first.text).toBe(201);
    for (let i = 0; i < 11; i++) {
      const res = await t.request('POST', domainOf(a.routeId), {
        token: a.token,
        body: { domain: 'echo-none.example' },
      });
      expect(res.status).toBe(409);
    }
    const refused = await t.request('POST', domainOf(a.routeId), {
      token: a.token,
      body: { domain: 'echo-none.example' },
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      detail: {
        error: 'rate_limited',
        message: 'Too many requests for this action. Please wait and try again.',
        action: 'custom_domain.link',
        retry_after_seconds: 3600,
      },
    });
    expect(refused.headers.get('retry-after')).toBe('3600');

    for (let i = 0; i < 12; i++) {
      const res = await t.request('POST', `${domainOf(a.routeId)}/verify`, { token: a.token });
      expect(res.status, res.text).toBe(200);
    }
    const thirteenth = await t.request('POST', `${domainOf(a.routeId)}/verify`, { token: a.token });
    expect(thirteenth.status).toBe(429);
    expect(thirteenth.body.detail).toMatchObject({
      action: 'custom_domain.verify',
      retry_after_seconds: 3600,
    });
  }, 30_000);

  it('another account’s route is 404 on every call; bad names are 422 naming the field', async () => {
    const a = await accountWithRoute('foxtrot');
    const other = await t.signUp();
    const linked = await t.request('POST', domainOf(a.routeId), {
      token: a.token,
      body: { domain: 'foxtrot-none.example' },
    });
    expect(linked.status).toBe(201);
    for (const [method, path, body] of [
      ['GET', domainOf(a.routeId), undefined],
      ['POST', domainOf(a.routeId), { domain: 'y.example' }],
      ['PATCH', domainOf(a.routeId), { include_in_list: true }],
      ['DELETE', domainOf(a.routeId), undefined],
      ['POST', `${domainOf(a.routeId)}/verify`, undefined],
      ['GET', domainOf(999_999), undefined],
    ] as const) {
      const res = await t.request(method, path, { token: other.token, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual({ detail: 'Game proxy route not found' });
    }
    expect((await t.request('GET', domainOf(a.routeId), { token: a.token })).body.fqdn).toBe(
      'foxtrot-none.example',
    );

    const b = await accountWithRoute('golf');
    const refused = async (body: object, loc: string) => {
      const res = await t.request('POST', domainOf(b.routeId), { token: b.token, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail[0].loc, JSON.stringify(body)).toEqual(['body', loc]);
    };
    await refused({ domain: 'not a domain' }, 'domain');
    await refused({ domain: 'localhost' }, 'domain');
    await refused({ domain: '192.0.2.1' }, 'domain');
    await refused({ domain: `x.${BASE}` }, 'domain');
    await refused({ domain: BASE.toUpperCase() }, 'domain');
    await refused({ domain: 'golf.example', subdomain: '-bad' }, 'subdomain');
    await refused({ domain: 'golf.example', subdomain: 'a..b' }, 'subdomain');
    await refused({ domain: 'golf.example', include_in_list: 'yes' }, 'include_in_list');
    // The apex of the caller's zone hosted here cannot hold the CNAME.
    await servedZone(b.token, 'golf-apex.example');
    await refused({ domain: 'golf-apex.example' }, 'subdomain');
    const none = await t.request('GET', domainOf(b.routeId), { token: b.token });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ detail: 'Custom domain not found' });
  });

  it('an organization’s route: its members’, published in the organization’s zone; listed by viewsOf', async () => {
    const owner = await t.signUp();
    const member = await t.signUp();
    const outsider = await t.signUp();
    const org = await createOrg(t, owner.token, 'juliet-org');
    await addMember(t, owner.token, org.slug, member.email, 'member');
    const routeId = await insertGameRoute(t, {
      user_id: await userIdOf(t, owner.token),
      org_id: org.id,
      subdomain: 'juliet',
      base_domain: BASE,
    });
    const zone = await t.request('POST', ZONES, {
      token: owner.token,
      body: { domain: 'juliet-org.example', org_slug: org.slug },
    });
    expect(zone.status, zone.text).toBe(201);

    const linked = await t.request('POST', domainOf(routeId), {
      token: member.token,
      body: { domain: 'juliet-org.example', subdomain: 'mc' },
    });
    expect(linked.status, linked.text).toBe(201);
    expect(linked.body).toMatchObject({ status: 'verified', cname_target: `juliet.${BASE}` });
    expect(await records.list('gameproxy', zone.body.id)).toHaveLength(1);
    expect((await t.request('GET', domainOf(routeId), { token: owner.token })).status).toBe(200);
    expect((await t.request('GET', domainOf(routeId), { token: outsider.token })).status).toBe(404);

    const orgs = t.node.modules.find((m) => m.name === 'orgs') as OrgsModule;
    const services = t.node.modules.find((m) => m.name === 'services') as ServicesModule;
    const domains = new CustomDomainsService(
      gameproxyContext(t.node.runtime),
      {
        records,
        orgs: orgs.directory,
        services: services.directory,
        liveProducts: new Registry<LiveProductSource>('live products'),
      },
      () => Promise.reject(new Error('not used')),
    );
    const views = await domains.viewsOf([routeId, 999_999]);
    expect([...views.keys()]).toEqual([routeId]);
    expect(views.get(routeId)).toEqual(linked.body);
    expect(await domains.viewsOf([])).toEqual(new Map());
  });

  it('PATCH include_in_list; DELETE unlinks and removes the published CNAME', async () => {
    const a = await accountWithRoute('hotel');
    const zone = await servedZone(a.token, 'hotel-owner.example');
    const linked = await t.request('POST', domainOf(a.routeId), {
      token: a.token,
      body: { domain: 'hotel-owner.example', subdomain: 'play' },
    });
    expect(linked.body).toMatchObject({ status: 'verified', include_in_list: false });
    await eventually(async () => (await cnameAt('play.hotel-owner.example')).length === 1);

    const patched = await t.request('PATCH', domainOf(a.routeId), {
      token: a.token,
      body: { include_in_list: true },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...linked.body, include_in_list: true });
    const noField = await t.request('PATCH', domainOf(a.routeId), { token: a.token, body: {} });
    expect(noField.status).toBe(422);

    changed.length = 0;
    const del = await t.request('DELETE', domainOf(a.routeId), { token: a.token });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect(await records.list('gameproxy', zone.id)).toEqual([]);
    await eventually(async () => (await cnameAt('play.hotel-owner.example')).length === 0);
    await eventually(async () => changed.some((ids) => ids.includes(a.routeId)));
    expect((await t.request('GET', domainOf(a.routeId), { token: a.token })).status).toBe(404);
    expect((await t.request('DELETE', domainOf(a.routeId), { token: a.token })).status).toBe(404);
    // The name is free again.
    const relinked = await t.request('POST', domainOf(a.routeId), {
      token: a.token,
      body: { domain: 'hotel-owner.example', subdomain: 'play' },
    });
    expect(relinked.status).toBe(201);
  });

  it('a published domain whose zone went: looked up at the next daily check, which counts a miss', async () => {
    const a = await accountWithRoute('lima');
    const zone = await servedZone(a.token, 'lima-owner.example');
    const linked = await t.request('POST', domainOf(a.routeId), {
      token: a.token,
      body: { domain: 'lima-owner.example', subdomain: 'mc' },
    });
    expect(linked.body).toMatchObject({ status: 'verified' });
    expect((await t.request('DELETE', `${ZONES}/${zone.id}`, { token: a.token })).status).toBe(204);

    clock.advance(DAY);
    await gameproxy.checkDueDomains();
    const token = await t.signIn(a.email);
    const after = await t.request('GET', domainOf(a.routeId), { token });
    expect(after.body).toMatchObject({ status: 'verified' });
    expect(after.body.last_error).toMatch(
      /^The DNS lookup of mc\.lima-owner\.example failed .*\(1 of 3 daily checks/,
    );
  });
});

describe('custom domains turned off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      env: { GAMEPROXY_BASE_DOMAINS: BASE, GAMEPROXY_ALLOW_CUSTOM_DOMAINS: 'false' },
    });
  });
  afterAll(async () => t?.close());

  it('refuses a link with 403', async () => {
    const { token } = await t.signUp();
    const routeId = await insertGameRoute(t, {
      user_id: await userIdOf(t, token),
      subdomain: 'india',
      base_domain: BASE,
    });
    const res = await t.request('POST', domainOf(routeId), { token, body: { domain: 'india.example' } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'Custom domains are not offered on this platform' });
  });
});
