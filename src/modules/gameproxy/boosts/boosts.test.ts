import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuePartnerKey, revokePartnerKeys } from '../../keys/index.ts';
import { insertGameRoute, userIdOf } from '../../../testing/gameproxy-fixture.ts';
import { GAME_PAID, insertGameServer } from '../../../testing/game-server-fixture.ts';
import { RELAY_FREE, relayKey } from '../../../testing/mail-relay-fixture.ts';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { createOrg } from '../../../testing/org-fixture.ts';
import { startTestApp, type TestApp, type TestResponse } from '../../../testing/test-app.ts';

const SLUG = 'boost-org';
const PARTNER = 'acme-hosting';
const URL_OF = (slug = SLUG, partner = PARTNER) => `/api/v1/orgs/${slug}/partners/${partner}/boosts`;
const HOUR_MS = 3_600_000;
const START = Date.UTC(2026, 10, 29, 12);

interface BoostAnswer {
  claim_id: string | null;
  server_address: string;
  service_id: number;
  memory_mb: number;
  expires_at: string;
  dry_run: boolean;
}

type Db = Kysely<Record<string, Record<string, unknown>>>;

describe('partner boosts', () => {
  const clock = new ManualClock(START);
  let t: TestApp;
  let db: Db;
  let owner: { token: string; email: string };
  let ownerId: number;
  let orgId: number;
  let key: string;
  let routes = 0;

  /** A free game server of the organization behind a fresh route; answers both and the address. */
  async function freeServerRoute(
    holder: { userId: number; orgId: number | null } = { userId: ownerId, orgId },
  ) {
    const serviceId = await insertGameServer(t, holder);
    const subdomain = `srv${++routes}`;
    const routeId = await insertGameRoute(t, {
      user_id: holder.userId,
      org_id: holder.orgId,
      subdomain,
      upstream_service_id: serviceId,
    });
    return { serviceId, routeId, address: `${subdomain}.play.localhost` };
  }

  function claim(body: unknown, options: { key?: string; url?: string; query?: string } = {}) {
    return t.request<BoostAnswer>('POST', `${options.url ?? URL_OF()}${options.query ?? ''}`, {
      headers: { authorization: `Bearer ${options.key ?? key}` },
      ...(body === undefined ? {} : { body }),
    });
  }

  function form(text: string, bearer = key) {
    return t.request<BoostAnswer>('POST', URL_OF(), {
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: text,
    });
  }

  async function boostsOf(serviceId: number) {
    return db.selectFrom('gameproxy_boosts').selectAll().where('service_id', '=', serviceId).execute();
  }

  function refused(res: TestResponse, status: number, code: string) {
    expect(res.status, res.text).toBe(status);
    expect(res.headers.get('x-error-code')).toBe(code);
  }

  beforeAll(async () => {
    t = await startTestApp({ clock });
    db = t.node.runtime.database.db as unknown as Db;
    owner = await t.signUp();
    ownerId = await userIdOf(t, owner.token);
    orgId = (await createOrg(t, owner.token, SLUG)).id;
    key = (await issuePartnerKey(t.node.runtime, SLUG, PARTNER)).raw;
  });
  afterAll(async () => t?.close());

  it('grants a boost from a JSON body: the settings’ memory for 24 h, recorded and audited', async () => {
    const { serviceId, routeId, address } = await freeServerRoute();
    const res = await claim({ server_address: `${address.toUpperCase()}.` });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      server_address: address,
      service_id: serviceId,
      memory_mb: 1024,
      expires_at: new Date(clock.now() + 24 * HOUR_MS).toISOString(),
      dry_run: false,
    });
    expect(res.body.claim_id).toMatch(/^[0-9a-f-]{36}$/);
    const rows = await boostsOf(serviceId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ partner: PARTNER, claim_id: res.body.claim_id, memory_mb: 1024 });
    expect(Number(rows[0]!.route_id)).toBe(routeId);
    const audit = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'gameproxy.boost.create')
      .where('resource_id', '=', String(rows[0]!.id))
      .execute();
    expect(audit).toHaveLength(1);
    expect(Number(audit[0]!.org_id)).toBe(orgId);
  });

  it('takes a URL-encoded form body', async () => {
    const { serviceId, address } = await freeServerRoute();
    const res = await form(`server_address=${address}&claim_id=form-1`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ claim_id: 'form-1', server_address: address, service_id: serviceId });
    expect(await boostsOf(serviceId)).toHaveLength(1);
  });

  it('takes the fields in the query string', async () => {
    const { serviceId, address } = await freeServerRoute();
    const res = await claim(undefined, { query: `?server_address=${address}&claim_id=q-1&dry_run=0` });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ claim_id: 'q-1', service_id: serviceId, dry_run: false });
    expect(await boostsOf(serviceId)).toHaveLength(1);
  });

  it('knows a route by its verified custom domain, not by a pending one', async () => {
    const { serviceId, routeId } = await freeServerRoute();
    const pending = await freeServerRoute();
    const now = new Date(clock.now());
    const domain = (route: number, fqdn: string, status: string) => ({
      route_id: route,
      domain: fqdn.slice(fqdn.indexOf('.') + 1),
      subdomain: fqdn.slice(0, fqdn.indexOf('.')),
      fqdn,
      status,
      include_in_list: false,
      managed_zone_id: null,
      checked_at: now,
      next_check_at: now,
      missed_checks: 0,
      last_error: null,
      created_at: now,
    });
    await db
      .insertInto('gameproxy_custom_domains')
      .values([
        domain(routeId, 'play.boost-example.com', 'verified'),
        domain(pending.routeId, 'mc.boost-example.com', 'pending'),
      ])
      .execute();
    const res = await claim({ server_address: 'Play.Boost-Example.COM' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ server_address: 'play.boost-example.com', service_id: serviceId });
    refused(await claim({ server_address: 'mc.boost-example.com' }), 422, 'gameproxy.unknown_server_address');
  });

  it('answers a retried claim_id with the grant already made, and one row', async () => {
    const { serviceId, address } = await freeServerRoute();
    const first = await claim({ server_address: address, claim_id: 'retry-1' });
    expect(first.status, first.text).toBe(200);
    clock.advance(60_000);
    const again = await claim({ server_address: address, claim_id: 'retry-1' });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(first.body);
    const asForm = await form(`server_address=${address}&claim_id=retry-1&dry_run=true`);
    expect(asForm.body).toEqual(first.body);
    expect(await boostsOf(serviceId)).toHaveLength(1);
    const other = await freeServerRoute();
    refused(
      await claim({ server_address: other.address, claim_id: 'retry-1' }),
      409,
      'gameproxy.boost_claim_conflict',
    );
    expect(await boostsOf(other.serviceId)).toHaveLength(0);
  });

  it('checks everything on a dry run and grants nothing', async () => {
    const { serviceId, address } = await freeServerRoute();
    const json = await claim({ server_address: address, dry_run: true });
    expect(json.status, json.text).toBe(200);
    expect(json.body).toMatchObject({
      claim_id: null,
      service_id: serviceId,
      memory_mb: 1024,
      dry_run: true,
    });
    const named = await form(`server_address=${address}&claim_id=dry-1&dry_run=1`);
    expect(named.body).toMatchObject({ claim_id: 'dry-1', dry_run: true });
    const query = await claim(undefined, { query: `?server_address=${address}&dry_run=true` });
    expect(query.body).toMatchObject({ dry_run: true });
    expect(await boostsOf(serviceId)).toHaveLength(0);
    refused(
      await claim({ server_address: 'nowhere.play.localhost', dry_run: true }),
      422,
      'gameproxy.unknown_server_address',
    );
    // The dry run's claim_id was not taken: a real claim with it is granted.
    const real = await claim({ server_address: address, claim_id: 'dry-1' });
    expect(real.body).toMatchObject({ claim_id: 'dry-1', dry_run: false });
    expect(await boostsOf(serviceId)).toHaveLength(1);
  });

  it('grants one boost at a time per server, whichever route names it; two at once, one wins', async () => {
    const { serviceId, address } = await freeServerRoute();
    const second = await insertGameRoute(t, {
      user_id: ownerId,
      org_id: orgId,
      subdomain: 'same-server',
      upstream_service_id: serviceId,
    });
    expect(second).toBeGreaterThan(0);
    const results = await Promise.all(
      ['a', 'b', 'c', 'd'].map((c, i) =>
        claim({
          server_address: i % 2 === 0 ? address : 'same-server.play.localhost',
          claim_id: `race-${c}`,
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409))
      expect(r.headers.get('x-error-code')).toBe('gameproxy.boost_already_active');
    expect(await boostsOf(serviceId)).toHaveLength(1);
    refused(await claim({ server_address: address, dry_run: true }), 409, 'gameproxy.boost_already_active');
  });

  it('refuses a paid game server, another organization’s, an account’s own, and a route without one', async () => {
    const paid = await insertGameServer(t, { userId: ownerId, orgId }, GAME_PAID);
    await insertGameRoute(t, {
      user_id: ownerId,
      org_id: orgId,
      subdomain: 'paid',
      upstream_service_id: paid,
    });
    refused(await claim({ server_address: 'paid.play.localhost' }), 403, 'gameproxy.boost_paid_server');

    const stranger = await t.signUp();
    const strangerId = await userIdOf(t, stranger.token);
    const otherOrg = await createOrg(t, stranger.token, 'boost-other');
    const theirs = await freeServerRoute({ userId: strangerId, orgId: otherOrg.id });
    refused(await claim({ server_address: theirs.address }), 403, 'gameproxy.boost_other_organization');
    const personal = await freeServerRoute({ userId: ownerId, orgId: null });
    refused(await claim({ server_address: personal.address }), 403, 'gameproxy.boost_other_organization');

    await insertGameRoute(t, {
      user_id: ownerId,
      org_id: orgId,
      subdomain: 'hosted',
      upstream_host: '192.0.2.10',
      upstream_port: 25565,
    });
    refused(await claim({ server_address: 'hosted.play.localhost' }), 403, 'gameproxy.boost_not_game_server');
    const relay = await t.request('POST', '/api/v1/services/order', {
      token: owner.token,
      body: { ...RELAY_FREE, org_slug: SLUG },
    });
    expect(relay.status, relay.text).toBe(201);
    await insertGameRoute(t, {
      user_id: ownerId,
      org_id: orgId,
      subdomain: 'relay',
      upstream_service_id: relay.body.id,
    });
    refused(await claim({ server_address: 'relay.play.localhost' }), 403, 'gameproxy.boost_not_game_server');
    const boosts = await db.selectFrom('gameproxy_boosts').select('service_id').execute();
    expect(boosts.map((b) => Number(b.service_id))).not.toContain(paid);
  });

  it('answers 422 naming server_address when it is unknown, malformed or missing', async () => {
    const unknown = await claim({ server_address: 'nope.play.localhost' });
    refused(unknown, 422, 'gameproxy.unknown_server_address');
    expect(unknown.body).toMatchObject({
      detail: [{ loc: ['body', 'server_address'], input: 'nope.play.localhost' }],
    });
    const fromQuery = await claim(undefined, { query: '?server_address=nope' });
    expect(fromQuery.body).toMatchObject({ detail: [{ loc: ['query', 'server_address'] }] });
    const missing = await claim({ claim_id: 'x' });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ detail: [{ type: 'missing', loc: ['body', 'server_address'] }] });
    const badDryRun = await claim({ server_address: 'nope.play.localhost', dry_run: 'yes' });
    expect(badDryRun.status).toBe(422);
    expect(JSON.stringify(badDryRun.body)).toContain('dry_run');
    const badClaim = await claim({ server_address: 'nope.play.localhost', claim_id: 'has space' });
    expect(badClaim.status).toBe(422);
    const text = await t.request('POST', URL_OF(), {
      headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' },
      rawBody: 'server_address=x',
    });
    expect(text.status).toBe(415);
  });

  it('takes a partner key of this organization and partner alone', async () => {
    const { serviceId, address } = await freeServerRoute();
    const body = { server_address: address };
    const orgKey = await t.request('POST', `/api/v1/orgs/${SLUG}/api-keys`, {
      token: owner.token,
      body: { label: 'shop', permissions: { scopes: ['commerce:*'] } },
    });
    expect(orgKey.status, orgKey.text).toBe(201);
    const relay = await t.request('POST', '/api/v1/services/order', { token: owner.token, body: RELAY_FREE });
    const relayRaw = await relayKey(t, owner.token, relay.body.id);
    const otherPartner = (await issuePartnerKey(t.node.runtime, SLUG, 'other-partner')).raw;
    const stranger = await t.signUp();
    await createOrg(t, stranger.token, 'boost-keys-other');
    const otherOrgKey = (await issuePartnerKey(t.node.runtime, 'boost-keys-other', PARTNER)).raw;
    const revoked = await issuePartnerKey(t.node.runtime, SLUG, PARTNER);
    expect(await revokePartnerKeys(t.node.runtime, SLUG, PARTNER, revoked.id)).toEqual([revoked.id]);

    const send = (headers: Record<string, string>) => t.request('POST', URL_OF(), { headers, body });
    const attempts: Record<string, TestResponse> = {
      none: await send({}),
      ownerToken: await send({ authorization: `Bearer ${owner.token}` }),
      orgKeyHeader: await send({ 'x-api-key': orgKey.body.raw_key }),
      orgKeyBearer: await send({ authorization: `Bearer ${orgKey.body.raw_key}` }),
      relayKeyHeader: await send({ 'x-api-key': relayRaw }),
      relayKeyBearer: await send({ authorization: `Bearer ${relayRaw}` }),
      partnerKeyHeader: await send({ 'x-api-key': key }),
      revoked: await send({ authorization: `Bearer ${revoked.raw}` }),
      otherPartner: await send({ authorization: `Bearer ${otherPartner}` }),
      otherOrg: await send({ authorization: `Bearer ${otherOrgKey}` }),
      tampered: await send({ authorization: `Bearer ${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}` }),
    };
    for (const [what, res] of Object.entries(attempts)) expect([what, res.status]).toEqual([what, 401]);
    expect(attempts.revoked!.headers.get('x-error-code')).toBe('keys.invalid_partner_key');
    // A key on the path of its partner but another organization, or of its organization and another partner.
    const elsewhere = [
      await claim(body, { url: URL_OF('boost-keys-other', PARTNER) }),
      await claim(body, { url: URL_OF(SLUG, 'other-partner') }),
      await claim(body, { key: otherOrgKey, url: URL_OF('boost-keys-other', PARTNER) }),
    ];
    expect(elsewhere.map((r) => r.status)).toEqual([401, 401, 403]);
    expect(await boostsOf(serviceId)).toHaveLength(0);
    // The other partner's key works on its own path.
    const own = await claim(body, { key: otherPartner, url: URL_OF(SLUG, 'other-partner') });
    expect(own.status, own.text).toBe(200);
  });

  it('is refused with 401 on every other route that needs a credential', async () => {
    const doc = (await t.request('GET', '/api/v1/openapi.json')).body as {
      paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
    };
    const accepted: string[] = [];
    let tried = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const schemes = (op.security ?? []).map((s) => Object.keys(s)[0]);
        if (schemes.length === 0 || schemes.includes('partnerKey')) continue;
        const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === 'org_slug' ? SLUG : '1'));
        const presented: Record<string, string>[] = [
          { authorization: `Bearer ${key}` },
          { 'x-api-key': key },
        ];
        for (const headers of presented) {
          // A minute between bursts: the proxy layer's bucket (400 per address, 200 a second) is full
          // again and the per-address window (2,400 a minute) has moved on, however many routes there are.
          if (tried % 300 === 299) clock.advance(60_000);
          const res = await t.request(method.toUpperCase(), url, { headers });
          tried++;
          if (res.status !== 401) accepted.push(`${method.toUpperCase()} ${path}: ${res.status}`);
        }
      }
    }
    expect(tried).toBeGreaterThan(100);
    expect(accepted).toEqual([]);
  });

  it('allows a new boost once the last has expired', async () => {
    const { serviceId, address } = await freeServerRoute();
    const first = await claim({ server_address: address });
    expect(first.status, first.text).toBe(200);
    clock.advance(24 * HOUR_MS - 1000);
    refused(await claim({ server_address: address }), 409, 'gameproxy.boost_already_active');
    clock.advance(1000);
    const next = await claim({ server_address: address, claim_id: 'after-expiry' });
    expect(next.status, next.text).toBe(200);
    expect(next.body.expires_at).toBe(new Date(clock.now() + 24 * HOUR_MS).toISOString());
    expect(await boostsOf(serviceId)).toHaveLength(2);
  });
});
