import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg } from '../../../testing/org-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

const ZONES = '/api/v1/dns/zones';
const HELD = 'Zone is inside a zone held by another account';

describe('the zone tree: public suffixes and other holders’ zones', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { NAMESERVERS: 'ns1.tree.example,ns2.tree.example' } });
    alice = (await t.signUp()).token;
    bob = (await t.signUp()).token;
  });
  afterAll(async () => t?.close());

  const create = (token: string, domain: string, orgSlug?: string) =>
    t.request('POST', ZONES, { token, body: { domain, ...(orgSlug ? { org_slug: orgSlug } : {}) } });
  const records = async (token: string, zoneId: number) =>
    (await t.request('GET', `${ZONES}/${zoneId}/records`, { token })).body as {
      id: number;
      name: string;
      type: string;
      content: string;
    }[];
  const serialOf = async (token: string, zoneId: number) =>
    Number((await t.request('GET', `${ZONES}/${zoneId}`, { token })).body.serial);

  it('refuses a public suffix, ICANN or private section (422 naming body.domain), and takes names below one', async () => {
    for (const [input, suffix] of [
      ['co.uk', 'co.uk'],
      ['CO.UK.', 'co.uk'],
      ['github.io', 'github.io'],
      ['s3.amazonaws.com', 's3.amazonaws.com'],
      ['in-addr.arpa', 'in-addr.arpa'],
      ['foo.ck', 'foo.ck'],
    ]) {
      const res = await create(alice, input!);
      expect(res.status, input).toBe(422);
      expect(res.body.detail, input).toEqual([
        expect.objectContaining({ loc: ['body', 'domain'], msg: `Zone name is a public suffix: ${suffix}` }),
      ]);
    }
    await createOrg(t, alice, 'suffix-org');
    expect((await create(alice, 'co.uk', 'suffix-org')).status).toBe(422);
    for (const domain of ['bob.co.uk', 'mine.github.io', 'www.ck', 'tree-suffix.example'])
      expect((await create(alice, domain)).status, domain).toBe(201);
  });

  it('refuses a zone below or above another holder’s (409), for accounts and organizations alike', async () => {
    expect((await create(alice, 'held.co.uk')).status).toBe(201);
    for (const domain of ['x.held.co.uk', 'a.b.held.co.uk']) {
      const res = await create(bob, domain);
      expect(res.status, domain).toBe(409);
      expect(res.body).toEqual({ detail: HELD });
    }
    expect((await create(bob, 'deep.inner.co.uk')).status).toBe(201);
    expect(await create(alice, 'inner.co.uk')).toMatchObject({ status: 409, body: { detail: HELD } });
    // The same name is still "already exists", whoever asks.
    expect(await create(bob, 'held.co.uk')).toMatchObject({
      status: 409,
      body: { detail: 'Zone already exists' },
    });
    // An organization is another holder than its members' own accounts, both ways.
    await createOrg(t, bob, 'tree-org');
    expect(await create(bob, 'org.deep.inner.co.uk', 'tree-org')).toMatchObject({
      status: 409,
      body: { detail: HELD },
    });
    expect((await create(bob, 'orgzone.example', 'tree-org')).status).toBe(201);
    expect(await create(bob, 'mine.orgzone.example')).toMatchObject({ status: 409, body: { detail: HELD } });
    expect((await create(bob, 'team.orgzone.example', 'tree-org')).status).toBe(201);
  });

  it('never lets two holders nest zones by creating them at the same time', async () => {
    const pairs = Array.from({ length: 8 }, (_, i) => [`race${i}.example`, `x.race${i}.example`] as const);
    const results = await Promise.all(
      pairs.map(async ([parent, child]) => {
        const [a, b] = await Promise.all([create(alice, parent), create(bob, child)]);
        return [a.status, b.status].sort();
      }),
    );
    for (const statuses of results) expect(statuses).toEqual([201, 409]);
  });

  it('delegates a child zone of the same holder from its parent by managed NS records', async () => {
    const parent = (await create(alice, 'family.example')).body;
    const before = await serialOf(alice, parent.id);
    const child = await create(alice, 'kid.family.example');
    expect(child.status).toBe(201);
    const ns = (await records(alice, parent.id)).filter((r) => r.type === 'NS');
    expect(ns.map((r) => [r.name, r.content]).sort()).toEqual([
      ['kid.family.example', 'ns1.tree.example.'],
      ['kid.family.example', 'ns2.tree.example.'],
    ]);
    expect(await serialOf(alice, parent.id)).toBeGreaterThan(before);
    // Managed: the holder can neither change nor delete them.
    const del = await t.request('DELETE', `${ZONES}/${parent.id}/records/${ns[0]!.id}`, { token: alice });
    expect(del).toMatchObject({ status: 409, body: { detail: 'Record is managed by dns' } });
    const put = await t.request('PUT', `${ZONES}/${parent.id}/records/${ns[0]!.id}`, {
      token: alice,
      body: { name: 'kid', type: 'NS', content: 'elsewhere.example.' },
    });
    expect(put.status).toBe(409);
    // The holder's DS stands beside them (RFC 4035 §2.4: at a delegation point).
    const ds = await t.request('POST', `${ZONES}/${parent.id}/records`, {
      token: alice,
      body: { name: 'kid', type: 'DS', content: `12345 13 2 ${'ab'.repeat(32)}` },
    });
    expect(ds.status, ds.text).toBe(201);
    // Deleting the child takes the delegation away, and the DS that only made sense with it.
    expect((await t.request('DELETE', `${ZONES}/${child.body.id}`, { token: alice })).status).toBe(204);
    expect(await records(alice, parent.id)).toEqual([]);
  });

  it('refuses a child zone whose delegation would hide the parent’s records below it (409), and creates nothing', async () => {
    const parent = (await create(alice, 'occupied.example')).body;
    const www = await t.request('POST', `${ZONES}/${parent.id}/records`, {
      token: alice,
      body: { name: 'www.kid', type: 'TXT', content: 'here' },
    });
    expect(www.status).toBe(201);
    const child = await create(alice, 'kid.occupied.example');
    expect(child.status).toBe(409);
    expect(child.body).toEqual({
      detail:
        'Names below kid.occupied.example already have records that a delegation would hide; remove them first',
    });
    const zones = (await t.request('GET', `${ZONES}?per_page=100`, { token: alice })).body as {
      domain: string;
    }[];
    expect(zones.map((z) => z.domain)).not.toContain('kid.occupied.example');
    expect((await records(alice, parent.id)).map((r) => r.type)).toEqual(['TXT']);
  });

  it('leaves the holder’s own identical NS record theirs, and adds only what is missing', async () => {
    const parent = (await create(alice, 'manual.example')).body;
    const own = await t.request('POST', `${ZONES}/${parent.id}/records`, {
      token: alice,
      body: { name: 'kid', type: 'NS', content: 'ns1.tree.example.' },
    });
    expect(own.status).toBe(201);
    const child = (await create(alice, 'kid.manual.example')).body;
    const ns = async () =>
      (await records(alice, parent.id)).map((r) => [r.id === own.body.id ? 'own' : 'managed', r.content]);
    expect(await ns()).toEqual([
      ['own', 'ns1.tree.example.'],
      ['managed', 'ns2.tree.example.'],
    ]);
    expect((await t.request('DELETE', `${ZONES}/${child.id}`, { token: alice })).status).toBe(204);
    expect(await ns()).toEqual([['own', 'ns1.tree.example.']]);
  });

  it('moves delegations to the closest zone when a zone comes in between or goes', async () => {
    const grandchild = (await create(alice, 'c.b.lineage.example')).body;
    const top = (await create(alice, 'lineage.example')).body;
    const nsOf = async (zoneId: number) =>
      (await records(alice, zoneId))
        .filter((r) => r.type === 'NS')
        .map((r) => r.name)
        .sort();
    // A parent created after its child delegates it at once.
    expect(await nsOf(top.id)).toEqual(['c.b.lineage.example', 'c.b.lineage.example']);
    const middle = (await create(alice, 'b.lineage.example')).body;
    expect(await nsOf(top.id)).toEqual(['b.lineage.example', 'b.lineage.example']);
    expect(await nsOf(middle.id)).toEqual(['c.b.lineage.example', 'c.b.lineage.example']);
    expect(await nsOf(grandchild.id)).toEqual([]);
    expect((await t.request('DELETE', `${ZONES}/${middle.id}`, { token: alice })).status).toBe(204);
    expect(await nsOf(top.id)).toEqual(['c.b.lineage.example', 'c.b.lineage.example']);
  });
});
