import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../../kernel/runtime/runtime.ts';
import { eventually } from '../../../testing/eventually.ts';
import { userIdOf } from '../../../testing/gameproxy-fixture.ts';
import { addMember, createOrg } from '../../../testing/org-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import { routesChanged } from '../gameproxy-events.ts';

const GP = '/api/v1/gameproxy';
const BASE = 'play.example.net';
const OTHER_BASE = 'mc.example.org';
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
/** A public address (nothing connects to it in these tests). */
const PUBLIC_IP = '1.1.1.1';

const locOf = (body: { detail: { loc: unknown }[] }) => body.detail[0]!.loc;

describe('game proxy routes: names, policy, and the routes of accounts and organizations', () => {
  let t: TestApp;
  let token: string;
  const announced: number[][] = [];

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        GAMEPROXY_BASE_DOMAINS: `${BASE},${OTHER_BASE}`,
        GAMEPROXY_MAX_ROUTES: '3',
        GAMEPROXY_STATUS_CACHE_TTL_S: '15',
        GAMEPROXY_STATUS_CACHE_TTL_MIN_S: '5',
        GAMEPROXY_STATUS_CACHE_TTL_MAX_S: '120',
      },
    });
    token = (await t.signUp()).token;
    await t.node.runtime.events.subscribe(routesChanged, (e) => announced.push([...e.routeIds]));
  }, 60_000);
  afterAll(async () => t?.close());

  const create = (tok: string, body: Record<string, unknown>) =>
    t.request('POST', `${GP}/routes`, { token: tok, body });
  const availability = (tok: string, body: Record<string, unknown>, query = '') =>
    t.request('POST', `${GP}/availability${query}`, { token: tok, body });

  it('answers the policy from the settings', async () => {
    const res = await t.request('GET', `${GP}/policy`, { token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      base_domains: [BASE, OTHER_BASE],
      max_routes: 3,
      allow_custom_domains: true,
      allow_proxy_protocol: true,
      status_cache_ttl_seconds: { default: 15, min: 5, max: 120 },
    });
    expect((await t.request('GET', `${GP}/policy`)).status).toBe(401);
  });

  it('answers availability with its reasons, under the first base domain by default', async () => {
    expect((await availability(token, { subdomain: 'My-Server' })).body).toEqual({
      subdomain: 'my-server',
      base_domain: BASE,
      available: true,
      reason: null,
    });
    for (const subdomain of ['ab', '-abc', 'abc-', 'a_b_c', 'a'.repeat(33), '', 'xn--abc', 'é-server']) {
      const res = await availability(token, { subdomain });
      expect(res.status, res.text).toBe(200);
      expect(res.body, subdomain).toMatchObject({ available: false, reason: 'invalid' });
    }
    expect((await availability(token, { subdomain: 'a'.repeat(32) })).body).toMatchObject({
      available: true,
    });
    for (const subdomain of ['www', 'play', 'mc', 'lobby', 'hub', 'admin'])
      expect((await availability(token, { subdomain })).body, subdomain).toMatchObject({
        available: false,
        reason: 'reserved',
      });
    const unknown = await availability(token, { subdomain: 'fine-name', base_domain: 'other.example' });
    expect(unknown.status).toBe(422);
    expect(locOf(unknown.body)).toEqual(['body', 'base_domain']);
  });

  it('makes a route, announces it to edge nodes, lists it, and answers the name taken', async () => {
    const res = await create(token, {
      subdomain: 'Brave-Server',
      display_name: 'Brave',
      upstream_host: PUBLIC_IP,
      online_motd: '  Welcome §aback',
      favicon: PNG,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      subdomain: 'brave-server',
      base_domain: BASE,
      address: `brave-server.${BASE}`,
      display_name: 'Brave',
      description: null,
      mode: 'proxy',
      upstream_service_id: null,
      upstream_host: PUBLIC_IP,
      upstream_port: 25565,
      location_id: null,
      org_id: null,
      online_motd: '  Welcome §aback',
      offline_motd: null,
      favicon: PNG,
      version_name: null,
      status_cache_ttl_seconds: 15,
      proxy_protocol: false,
      real_ip: false,
      custom_domain: null,
      created_at: expect.any(String),
      updated_at: res.body.created_at,
    });
    await eventually(async () => expect(announced).toContainEqual([res.body.id]));
    const list = await t.request('GET', `${GP}/routes`, { token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([res.body]);
    expect((await availability(token, { subdomain: 'brave-server' })).body).toMatchObject({
      available: false,
      reason: 'taken',
    });
    // The same subdomain under the other base domain is another address.
    expect(
      (await availability(token, { subdomain: 'brave-server', base_domain: OTHER_BASE })).body,
    ).toMatchObject({ available: true });
    const other = await t.signUp();
    const taken = await create(other.token, { subdomain: 'brave-server', upstream_host: PUBLIC_IP });
    expect(taken.status).toBe(409);
    expect(taken.headers.get('x-error-code')).toBe('gameproxy.address_taken');
    const db = tablesOf<{ audit_log: { action: string; resource_id: string } }>(t.node.runtime);
    const audit = await db
      .selectFrom('audit_log')
      .select('action')
      .where('resource_id', '=', String(res.body.id))
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['gameproxy.route.create']);
  });

  it('refuses bad fields with 422 naming them', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ subdomain: 'www', upstream_host: PUBLIC_IP }, 'subdomain'],
      [{ subdomain: 'a_b', upstream_host: PUBLIC_IP }, 'subdomain'],
      [{ subdomain: 'fine-one', base_domain: 'nope.example', upstream_host: PUBLIC_IP }, 'base_domain'],
      [{ subdomain: 'fine-one' }, 'upstream_host'],
      [{ subdomain: 'fine-one', upstream_host: '10.1.2.3' }, 'upstream_host'],
      [{ subdomain: 'fine-one', upstream_host: '127.0.0.1' }, 'upstream_host'],
      [{ subdomain: 'fine-one', upstream_host: 'localhost' }, 'upstream_host'],
      [{ subdomain: 'fine-one', upstream_host: '192.0.2.1' }, 'upstream_host'],
      [{ subdomain: 'fine-one', upstream_host: 'not a host' }, 'upstream_host'],
      [{ subdomain: 'fine-one', upstream_host: PUBLIC_IP, upstream_service_id: 7 }, 'upstream_host'],
      [{ subdomain: 'fine-one', upstream_service_id: 999_999 }, 'upstream_service_id'],
      [{ subdomain: 'fine-one', upstream_host: PUBLIC_IP, upstream_port: 0 }, 'upstream_port'],
      [{ subdomain: 'fine-one', upstream_host: PUBLIC_IP, upstream_port: 65_536 }, 'upstream_port'],
      [{ subdomain: 'fine-one', mode: 'status_only', upstream_port: 25565 }, 'upstream_port'],
      [
        { subdomain: 'fine-one', upstream_host: PUBLIC_IP, status_cache_ttl_seconds: 4 },
        'status_cache_ttl_seconds',
      ],
      [
        { subdomain: 'fine-one', upstream_host: PUBLIC_IP, status_cache_ttl_seconds: 121 },
        'status_cache_ttl_seconds',
      ],
      [{ subdomain: 'fine-one', upstream_host: PUBLIC_IP, favicon: 'https://x.example/i.png' }, 'favicon'],
      [{ subdomain: 'fine-one', upstream_host: PUBLIC_IP, favicon: 'data:image/png;base64,AAAA' }, 'favicon'],
      [
        {
          subdomain: 'fine-one',
          upstream_host: PUBLIC_IP,
          favicon: `data:image/png;base64,${'A'.repeat(22_000)}`,
        },
        'favicon',
      ],
      [{ subdomain: 'fine-one', upstream_host: PUBLIC_IP, online_motd: 'x'.repeat(513) }, 'online_motd'],
      [{ subdomain: 'fine-one', upstream_host: PUBLIC_IP, mode: 'bridge' }, 'mode'],
      // NUL is no character a text column takes.
      [{ subdomain: 'fine-one', upstream_host: PUBLIC_IP, display_name: 'a\u0000b' }, 'display_name'],
      [{ subdomain: 'fine-one', upstream_host: PUBLIC_IP, offline_motd: 'x\u0000' }, 'offline_motd'],
      [{ subdomain: 'fine\u0000one', upstream_host: PUBLIC_IP }, 'subdomain'],
    ];
    for (const [body, field] of cases) {
      const res = await create(token, body);
      expect(res.status, `${JSON.stringify(body).slice(0, 120)}: ${res.text.slice(0, 300)}`).toBe(422);
      expect(locOf(res.body), JSON.stringify(body).slice(0, 120)).toEqual(['body', field]);
    }
    expect((await t.request('GET', `${GP}/routes`, { token })).body).toHaveLength(1);
  });

  it('makes a status-only route without an upstream', async () => {
    const res = await create(token, {
      subdomain: 'status-page',
      base_domain: OTHER_BASE,
      mode: 'status_only',
      offline_motd: 'Back soon',
      status_cache_ttl_seconds: 60,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      address: `status-page.${OTHER_BASE}`,
      mode: 'status_only',
      upstream_host: null,
      upstream_port: null,
      status_cache_ttl_seconds: 60,
    });
  });

  it('changes what the server list shows, and clears fields with clear_* flags', async () => {
    const route = (await t.request('GET', `${GP}/routes`, { token })).body[0];
    const patched = await t.request('PATCH', `${GP}/routes/${route.id}`, {
      token,
      body: {
        offline_motd: 'Sleeping',
        version_name: 'Paper 1.21',
        description: 'A brave server',
        status_cache_ttl_seconds: 30,
      },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      online_motd: '  Welcome §aback',
      offline_motd: 'Sleeping',
      favicon: PNG,
      version_name: 'Paper 1.21',
      description: 'A brave server',
      status_cache_ttl_seconds: 30,
    });
    const before = announced.length;
    const cleared = await t.request('PATCH', `${GP}/routes/${route.id}`, {
      token,
      body: { clear_favicon: true, clear_online_motd: true, clear_offline_motd: true, display_name: null },
    });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({
      online_motd: null,
      offline_motd: null,
      favicon: null,
      display_name: null,
      version_name: 'Paper 1.21',
    });
    await eventually(async () => expect(announced.slice(before)).toContainEqual([route.id]));
    expect((await t.request('GET', `${GP}/routes`, { token })).body[0]).toEqual(cleared.body);
    const both = await t.request('PATCH', `${GP}/routes/${route.id}`, {
      token,
      body: { favicon: PNG, clear_favicon: true },
    });
    expect(both.status).toBe(422);
    expect(locOf(both.body)).toEqual(['body', 'clear_favicon']);
    const ttl = await t.request('PATCH', `${GP}/routes/${route.id}`, {
      token,
      body: { status_cache_ttl_seconds: 500 },
    });
    expect(ttl.status).toBe(422);
    expect(locOf(ttl.body)).toEqual(['body', 'status_cache_ttl_seconds']);
  });

  it('keeps one account’s routes from another: 404 to read, change or delete', async () => {
    const route = (await t.request('GET', `${GP}/routes`, { token })).body[0];
    const other = await t.signUp();
    expect((await t.request('GET', `${GP}/routes`, { token: other.token })).body).toEqual([]);
    const patch = await t.request('PATCH', `${GP}/routes/${route.id}`, {
      token: other.token,
      body: { display_name: 'mine now' },
    });
    expect(patch.status).toBe(404);
    expect(patch.headers.get('x-error-code')).toBe('gameproxy.route_not_found');
    expect((await t.request('DELETE', `${GP}/routes/${route.id}`, { token: other.token })).status).toBe(404);
    expect((await t.request('PATCH', `${GP}/routes/999999`, { token, body: {} })).status).toBe(404);
  });

  it('counts routes per account: max_routes, then 403 with its code', async () => {
    // Two routes so far: one more fits.
    expect((await create(token, { subdomain: 'third-one', upstream_host: PUBLIC_IP })).status).toBe(201);
    const fourth = await create(token, { subdomain: 'fourth-one', upstream_host: PUBLIC_IP });
    expect(fourth.status).toBe(403);
    expect(fourth.headers.get('x-error-code')).toBe('gameproxy.route_limit_reached');
    expect(fourth.body).toEqual({ detail: 'Game proxy route limit reached (3)' });
  });

  it('holds the limit when creations arrive together', async () => {
    const racer = await t.signUp();
    const answers = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((i) =>
        create(racer.token, { subdomain: `racer-${i}`, upstream_host: PUBLIC_IP }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 201, 403, 403, 403]);
    expect((await t.request('GET', `${GP}/routes`, { token: racer.token })).body).toHaveLength(3);
  });

  it('deletes a route: 204, announced, the address free again', async () => {
    const routes = (await t.request('GET', `${GP}/routes`, { token })).body;
    const third = routes.find((r: { subdomain: string }) => r.subdomain === 'third-one');
    const before = announced.length;
    const del = await t.request('DELETE', `${GP}/routes/${third.id}`, { token });
    expect(del.status, del.text).toBe(204);
    expect(del.text).toBe('');
    await eventually(async () => expect(announced.slice(before)).toContainEqual([third.id]));
    expect((await availability(token, { subdomain: 'third-one' })).body).toMatchObject({ available: true });
    expect((await t.request('DELETE', `${GP}/routes/${third.id}`, { token })).status).toBe(404);
    expect((await t.request('GET', `${GP}/routes`, { token })).body).toHaveLength(2);
  });

  it('suggests readable names that are free when answered', async () => {
    const res = await t.request('POST', `${GP}/name-suggestions`, { token, body: { count: 12 } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.base_domain).toBe(BASE);
    expect(res.body.suggestions).toHaveLength(12);
    expect(new Set(res.body.suggestions).size).toBe(12);
    for (const name of res.body.suggestions) {
      expect(name).toMatch(/^[a-z]+-[a-z]+(-\d\d)?$/);
      expect((await availability(token, { subdomain: name })).body, name).toMatchObject({ available: true });
    }
    const byDefault = await t.request('POST', `${GP}/name-suggestions`, {
      token,
      body: { base_domain: OTHER_BASE },
    });
    expect(byDefault.body).toMatchObject({ base_domain: OTHER_BASE });
    expect(byDefault.body.suggestions).toHaveLength(5);
    for (const count of [0, 21]) {
      const bad = await t.request('POST', `${GP}/name-suggestions`, { token, body: { count } });
      expect(bad.status).toBe(422);
      expect(locOf(bad.body)).toEqual(['body', 'count']);
    }
  });

  it('leads a route to a game server service of the caller’s, never to another’s or another kind', async () => {
    const gamer = await t.signUp();
    const other = await t.signUp();
    // Game servers cannot be ordered yet (no provisioner): their rows as the provisioner will hold them.
    const services = tablesOf<{ services: Record<string, unknown> & { id: number } }>(t.node.runtime);
    const gameServer = async (tok: string) => {
      const row = await services
        .insertInto('services')
        .values({
          user_id: await userIdOf(t, tok),
          org_id: null,
          product_id: 30,
          product_name: 'Minecraft 4 GB',
          pricing_id: 23,
          module_name: 'game_server',
          resource_type: 'container',
          label: 'Minecraft',
          status: 'active',
          billing_cycle: 'monthly',
          price: '9.00',
          currency: 'EUR',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    };
    const mine = await gameServer(gamer.token);
    const theirs = await gameServer(other.token);
    const dns = await t.request('POST', '/api/v1/services/order', {
      token: gamer.token,
      body: { product_id: 1, pricing_id: 1 },
    });
    expect(dns.status, dns.text).toBe(201);

    const res = await create(gamer.token, { subdomain: 'my-game', upstream_service_id: mine });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ upstream_service_id: mine, upstream_host: null, upstream_port: null });
    for (const serviceId of [theirs, dns.body.id]) {
      const refused = await create(gamer.token, { subdomain: 'not-mine', upstream_service_id: serviceId });
      expect(refused.status, refused.text).toBe(422);
      expect(locOf(refused.body)).toEqual(['body', 'upstream_service_id']);
    }
  });

  it('keeps an organization’s routes for its members: members read, admins write, others 404', async () => {
    const owner = await t.signUp();
    const member = await t.signUp();
    const admin = await t.signUp();
    const stranger = await t.signUp();
    const org = await createOrg(t, owner.token, 'gp-org');
    await addMember(t, owner.token, 'gp-org', member.email, 'member');
    await addMember(t, owner.token, 'gp-org', admin.email, 'admin');

    const made = await create(owner.token, {
      subdomain: 'org-server',
      upstream_host: PUBLIC_IP,
      org_id: org.id,
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.org_id).toBe(org.id);
    // The organization's routes are not the owner's own.
    expect((await t.request('GET', `${GP}/routes`, { token: owner.token })).body).toEqual([]);
    for (const tok of [owner.token, member.token, admin.token]) {
      const list = await t.request('GET', `${GP}/routes?org_id=${org.id}`, { token: tok });
      expect(list.status, list.text).toBe(200);
      expect(list.body.map((r: { id: number }) => r.id)).toEqual([made.body.id]);
    }
    expect((await t.request('GET', `${GP}/policy?org_id=${org.id}`, { token: member.token })).status).toBe(
      200,
    );

    const byMember = await t.request('PATCH', `${GP}/routes/${made.body.id}`, {
      token: member.token,
      body: { display_name: 'member was here' },
    });
    expect(byMember.status).toBe(403);
    expect(
      (await create(member.token, { subdomain: 'member-one', upstream_host: PUBLIC_IP, org_id: org.id }))
        .status,
    ).toBe(403);
    const byAdmin = await t.request('PATCH', `${GP}/routes/${made.body.id}`, {
      token: admin.token,
      body: { display_name: 'Org server' },
    });
    expect(byAdmin.status, byAdmin.text).toBe(200);
    // A live product of the organization: it must go before the organization can.
    expect((await t.request('GET', `/api/v1/orgs/gp-org/deletion`, { token: owner.token })).body).toEqual({
      products: [
        {
          type: 'game_route',
          id: made.body.id,
          name: 'org-server.' + made.body.base_domain,
          ends: 'stops answering',
        },
      ],
    });

    expect((await t.request('GET', `${GP}/routes?org_id=${org.id}`, { token: stranger.token })).status).toBe(
      404,
    );
    expect(
      (await t.request('PATCH', `${GP}/routes/${made.body.id}`, { token: stranger.token, body: {} })).status,
    ).toBe(404);
    const foreign = await create(stranger.token, {
      subdomain: 'stranger-one',
      upstream_host: PUBLIC_IP,
      org_id: org.id,
    });
    expect(foreign.status).toBe(404);
    expect((await availability(stranger.token, { subdomain: 'x-y-z' }, `?org_id=${org.id}`)).status).toBe(
      404,
    );

    // The organization has a limit of its own, apart from its members' accounts.
    for (const i of [2, 3])
      expect(
        (
          await create(admin.token, {
            subdomain: `org-server-${i}`,
            upstream_host: PUBLIC_IP,
            org_id: org.id,
          })
        ).status,
      ).toBe(201);
    expect(
      (await create(admin.token, { subdomain: 'org-server-4', upstream_host: PUBLIC_IP, org_id: org.id }))
        .status,
    ).toBe(403);
    expect((await create(admin.token, { subdomain: 'admin-own', upstream_host: PUBLIC_IP })).status).toBe(
      201,
    );

    const db = tablesOf<{
      audit_log: { id: number; action: string; org_id: number | null; resource_id: string };
    }>(t.node.runtime);
    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'org_id'])
      .where('resource_id', '=', String(made.body.id))
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'gameproxy.route.create', org_id: org.id },
      { action: 'gameproxy.route.update', org_id: org.id },
    ]);
  }, 60_000);
});

describe('game proxy routes: a deployment that allows private upstreams and no PROXY protocol', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({
      env: {
        GAMEPROXY_BASE_DOMAINS: BASE,
        GAMEPROXY_ALLOW_PRIVATE_UPSTREAMS: 'true',
        GAMEPROXY_ALLOW_PROXY_PROTOCOL: 'false',
        GAMEPROXY_ALLOW_CUSTOM_DOMAINS: 'false',
      },
    });
    token = (await t.signUp()).token;
  }, 60_000);
  afterAll(async () => t?.close());

  it('takes private and loopback upstreams, by address or by name, never reserved ones', async () => {
    for (const [subdomain, host] of [
      ['lab-one', '10.1.2.3'],
      ['lab-two', '127.0.0.1'],
      ['lab-three', 'localhost'],
    ] as const) {
      const res = await t.request('POST', `${GP}/routes`, {
        token,
        body: { subdomain, upstream_host: host, upstream_port: 25570, real_ip: true },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ upstream_host: host, upstream_port: 25570, real_ip: true });
    }
    const reserved = await t.request('POST', `${GP}/routes`, {
      token,
      body: { subdomain: 'lab-four', upstream_host: '169.254.169.254' },
    });
    expect(reserved.status).toBe(422);
    expect(locOf(reserved.body)).toEqual(['body', 'upstream_host']);
  });

  it('refuses the PROXY protocol the policy does not offer', async () => {
    expect((await t.request('GET', `${GP}/policy`, { token })).body).toMatchObject({
      allow_proxy_protocol: false,
      allow_custom_domains: false,
    });
    const res = await t.request('POST', `${GP}/routes`, {
      token,
      body: { subdomain: 'with-proxy', upstream_host: '10.0.0.9', proxy_protocol: true },
    });
    expect(res.status).toBe(422);
    expect(locOf(res.body)).toEqual(['body', 'proxy_protocol']);
  });
});
