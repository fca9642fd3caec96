import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createZone, ZONES } from '../../../testing/dns-api-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

interface Rec {
  id: number;
  name: string;
  type: string;
  content: string;
  ttl: number;
  created_at: string;
}

/** Each type: [name, type, content] → expected stored content, then a bad content. */
const TYPES: { type: string; name: string; content: string; stored: string; bad: string }[] = [
  { type: 'A', name: 'www', content: '192.0.2.1', stored: '192.0.2.1', bad: '300.1.1.1' },
  { type: 'AAAA', name: 'www', content: '2001:DB8::1', stored: '2001:db8::1', bad: '2001:db8::g' },
  { type: 'CNAME', name: 'alias', content: 'www', stored: 'www.rt.example.', bad: 'bad name..' },
  { type: 'MX', name: '@', content: '10 mail', stored: '10 mail.rt.example.', bad: 'ten mail' },
  {
    type: 'TXT',
    name: '@',
    content: '"v=spf1 -all" "second string"',
    stored: '"v=spf1 -all" "second string"',
    bad: '"unterminated',
  },
  { type: 'NS', name: 'sub', content: 'ns1.sub', stored: 'ns1.sub.rt.example.', bad: '10 ns1' },
  {
    type: 'SRV',
    name: '_sip._tcp',
    content: '10 60 5060 sip.example.net.',
    stored: '10 60 5060 sip.example.net.',
    bad: '10 60 99999 sip',
  },
  {
    type: 'CAA',
    name: '@',
    content: '0 issue "letsencrypt.org"',
    stored: '0 issue "letsencrypt.org"',
    bad: '0 bad tag! "x"',
  },
  { type: 'PTR', name: 'ptr', content: 'host', stored: 'host.rt.example.', bad: '"quoted" extra' },
  {
    type: 'DS',
    name: 'sub',
    content: '12345 13 2 49FD46E6C4B45C55D4AC69CBD3CD34AC1AFE51DE49FD46E6C4B45C55D4AC69CB',
    stored: '12345 13 2 49FD46E6C4B45C55D4AC69CBD3CD34AC1AFE51DE49FD46E6C4B45C55D4AC69CB',
    bad: '12345 13 2 49FD46E6C4B45C55D4AC69CBD3CD34AC1AFE51DE',
  },
  {
    type: 'SSHFP',
    name: 'ssh',
    content: '1 1 dc1e2a5b8c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f',
    stored: '1 1 DC1E2A5B8C3D4E5F6A7B8C9D0E1F2A3B4C5D6E7F',
    bad: '1 1 xyz',
  },
  {
    type: 'TLSA',
    name: '_443._tcp',
    content: '3 1 1 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    stored: '3 1 1 0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF',
    bad: '3 1 1 nothex',
  },
  {
    type: 'NAPTR',
    name: 'naptr',
    content: '100 10 "S" "SIP+D2U" "" _sip._udp',
    stored: '100 10 "S" "SIP+D2U" "" _sip._udp.rt.example.',
    bad: '100 10 S',
  },
  { type: 'HTTPS', name: '@', content: '1 . alpn=h2,h3', stored: '1 . alpn=h2,h3', bad: '1 . nosuchkey=1' },
  {
    type: 'SVCB',
    name: '_8443._svc',
    content: '1 svc.example.net. port=8443',
    stored: '1 svc.example.net. port=8443',
    bad: '1 svc.example.net. port=notaport',
  },
  { type: 'DNAME', name: 'dn', content: 'other.example.', stored: 'other.example.', bad: '' },
  { type: 'TYPE65000', name: 'gen', content: '\\# 3 010203', stored: '\\# 3 010203', bad: '\\# 4 010203' },
];

describe('DNS records routes', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    t = await startTestApp();
    alice = (await t.signUp()).token;
    bob = (await t.signUp()).token;
  });
  afterAll(async () => t?.close());

  const zone = (domain: string, token = alice) => createZone(t, token, domain);
  const post = (zoneId: number, body: unknown, token = alice) =>
    t.request('POST', `${ZONES}/${zoneId}/records`, { token, body });
  const serialOf = async (zoneId: number) =>
    (await t.request('GET', `${ZONES}/${zoneId}`, { token: alice })).body.serial as number;

  it('stores every record type in presentation form with absolute names', async () => {
    const z = await zone('rt.example');
    for (const c of TYPES) {
      const res = await post(z.id, { name: c.name, type: c.type.toLowerCase(), content: c.content });
      expect(res.status, `${c.type} ${res.text}`).toBe(201);
      const fqdn = c.name === '@' ? 'rt.example' : `${c.name}.rt.example`;
      expect(res.body).toEqual({
        id: expect.any(Number),
        zone_id: z.id,
        name: fqdn,
        type: c.type,
        content: c.stored,
        ttl: 300,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const got = await t.request('GET', `${ZONES}/${z.id}/records/${res.body.id}`, { token: alice });
      expect(got.body).toEqual(res.body);
    }
    expect((await t.request('GET', `${ZONES}/${z.id}`, { token: alice })).body.record_count).toBe(
      TYPES.length,
    );
  });

  it('refuses bad content for every type with 422 naming body.content', async () => {
    const z = await zone('bad.example');
    // DS needs a delegation to be judged on its content.
    expect((await post(z.id, { name: 'sub', type: 'NS', content: 'ns.example.net.' })).status).toBe(201);
    for (const c of TYPES) {
      const res = await post(z.id, { name: c.name, type: c.type, content: c.bad });
      expect(res.status, `${c.type} ${JSON.stringify(c.bad)} ${res.text}`).toBe(422);
      expect(res.body.detail[0].loc, c.type).toEqual(['body', 'content']);
      expect(typeof res.body.detail[0].msg).toBe('string');
    }
    expect((await t.request('GET', `${ZONES}/${z.id}`, { token: alice })).body.record_count).toBe(1);
  });

  it('accepts @, relative and FQDN names (with or without a trailing dot) and refuses names outside', async () => {
    const z = await zone('names.example');
    const cases: [string, string][] = [
      ['@', 'names.example'],
      ['', 'names.example'],
      ['names.example.', 'names.example'],
      ['Host', 'host.names.example'],
      ['deep.host', 'deep.host.names.example'],
      ['fq.names.example', 'fq.names.example'],
      ['fq2.NAMES.example.', 'fq2.names.example'],
      ['*.wild', '*.wild.names.example'],
      ['_dmarc', '_dmarc.names.example'],
      ['bücher', 'xn--bcher-kva.names.example'],
    ];
    for (const [i, [name, fqdn]] of cases.entries()) {
      const res = await post(z.id, { name, type: 'TXT', content: `"${i}"` });
      expect(res.status, name).toBe(201);
      expect(res.body.name).toBe(fqdn);
    }
    for (const name of ['a..b', 'bad!name', 'x.*.y', `${'a'.repeat(64)}`, `${'a.'.repeat(120)}x`]) {
      const res = await post(z.id, { name, type: 'A', content: '192.0.2.1' });
      expect(res.status, name).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', 'name']);
    }
    // Without a trailing dot a name that looks like another zone is relative; with one it is
    // absolute and, being outside the zone, refused.
    const other = await post(z.id, { name: 'other.example', type: 'A', content: '192.0.2.1' });
    expect(other.body.name).toBe('other.example.names.example');
    const outside = await post(z.id, { name: 'www.other.example.', type: 'A', content: '192.0.2.1' });
    expect(outside.status).toBe(422);
    expect(outside.body.detail[0]).toMatchObject({
      loc: ['body', 'name'],
      msg: 'Name must be inside the zone names.example',
    });
    // A name that merely ends like the zone (no label boundary) is not inside it.
    expect((await post(z.id, { name: 'xnames.example.', type: 'A', content: '192.0.2.1' })).status).toBe(422);
  });

  it('checks type and ttl fields', async () => {
    const z = await zone('fields.example');
    const cases: [unknown, (string | number)[]][] = [
      [{ name: 'a', type: 'BOGUS', content: 'x' }, ['body', 'type']],
      [{ name: '@', type: 'SOA', content: 'a. b. 1 2 3 4 5' }, ['body', 'type']],
      [{ name: '@', type: 'NS', content: 'ns.example.net.' }, ['body', 'type']],
      [{ name: 'a', type: 'ANY', content: 'x' }, ['body', 'type']],
      [{ name: 'a', type: 'RRSIG', content: 'x' }, ['body', 'type']],
      [{ name: 'a', type: 'A', content: '192.0.2.1', ttl: 0 }, ['body', 'ttl']],
      [{ name: 'a', type: 'A', content: '192.0.2.1', ttl: 2147483648 }, ['body', 'ttl']],
      [{ name: 'a', type: 'A', content: '192.0.2.1', ttl: 1.5 }, ['body', 'ttl']],
      [{ name: 'a', type: 'A' }, ['body', 'content']],
      [{ type: 'A', content: '192.0.2.1' }, ['body', 'name']],
      [{ name: 'a', content: '192.0.2.1' }, ['body', 'type']],
      [{ name: 'a', type: 'A', content: '192.0.2.1', extra: 1 }, ['body', 'extra']],
    ];
    for (const [body, loc] of cases) {
      const res = await post(z.id, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(
        res.body.detail.map((d: { loc: unknown }) => d.loc),
        JSON.stringify(body),
      ).toContainEqual(loc);
    }
    const messages: [unknown, string][] = [
      [{ name: 'a', type: 'BOGUS', content: 'x' }, 'Unknown record type: BOGUS'],
      [{ name: '@', type: 'SOA', content: 'a. b. 1 2 3 4 5' }, 'SOA records are managed by the platform'],
      [{ name: 'a', type: 'DNSKEY', content: '257 3 13 AAAA' }, 'DNSKEY records are managed by the platform'],
      [
        { name: '@', type: 'NS', content: 'ns.example.net.' },
        'NS records at the zone apex are managed by the platform',
      ],
      [{ name: 'a', type: 'ANY', content: 'x' }, 'ANY is not a record type that can be stored'],
    ];
    for (const [body, msg] of messages) {
      expect((await post(z.id, body)).body.detail[0].msg, JSON.stringify(body)).toBe(msg);
    }
    expect((await post(z.id, { name: 'dn', type: 'DNAME', content: 'one.example.net.' })).status).toBe(201);
    expect(await post(z.id, { name: 'dn', type: 'DNAME', content: 'two.example.net.' })).toMatchObject({
      status: 409,
      body: { detail: 'Only one DNAME record may exist at a name' },
    });
    expect((await post(z.id, { name: 'min', type: 'A', content: '192.0.2.1', ttl: 1 })).body.ttl).toBe(1);
    const max = await post(z.id, { name: 'max', type: 'A', content: '192.0.2.1', ttl: 2147483647 });
    expect(max.body.ttl).toBe(2147483647);
    expect((await post(z.id, { name: 'def', type: 'A', content: '192.0.2.1' })).body.ttl).toBe(300);
  });

  it('keeps CNAME alone and never at the apex', async () => {
    const z = await zone('cname.example');
    const apex = await post(z.id, { name: '@', type: 'CNAME', content: 'target.example.' });
    expect(apex.status).toBe(422);
    expect(apex.body.detail[0]).toMatchObject({
      loc: ['body', 'type'],
      msg: 'A CNAME record cannot be placed at the zone apex',
    });
    expect((await post(z.id, { name: 'www', type: 'A', content: '192.0.2.1' })).status).toBe(201);
    const beside = await post(z.id, { name: 'www', type: 'CNAME', content: 'target.example.' });
    expect(beside.status).toBe(409);
    expect(beside.body).toEqual({
      detail: 'A CNAME record cannot coexist with other records at the same name',
    });
    expect((await post(z.id, { name: 'alias', type: 'CNAME', content: 'www' })).status).toBe(201);
    const other = await post(z.id, { name: 'alias', type: 'TXT', content: '"x"' });
    expect(other.status).toBe(409);
    expect(other.body).toEqual({
      detail: 'A CNAME record cannot coexist with other records at the same name',
    });
    expect((await post(z.id, { name: 'alias', type: 'CNAME', content: 'other' })).status).toBe(409);
  });

  it('answers 409 "Record already exists" for identical records (whatever the TTL or spelling)', async () => {
    const z = await zone('dup.example');
    expect((await post(z.id, { name: 'www', type: 'A', content: '192.0.2.1' })).status).toBe(201);
    for (const body of [
      { name: 'www', type: 'A', content: '192.0.2.1' },
      { name: 'WWW.dup.example.', type: 'a', content: '192.0.2.1', ttl: 60 },
    ]) {
      const res = await post(z.id, body);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: 'Record already exists' });
    }
    expect((await post(z.id, { name: '@', type: 'MX', content: '10 mail' })).status).toBe(201);
    expect((await post(z.id, { name: '@', type: 'MX', content: '10 mail.dup.example.' })).status).toBe(409);
    expect((await post(z.id, { name: '@', type: 'MX', content: '20 mail' })).status).toBe(201);
  });

  it('makes a delegation with NS below the apex: only DS and glue beside it, only glue below', async () => {
    const z = await zone('deleg.example');
    expect((await post(z.id, { name: 'sub', type: 'NS', content: 'ns1.sub' })).status).toBe(201);
    expect((await post(z.id, { name: 'ns1.sub', type: 'A', content: '192.0.2.53' })).status).toBe(201);
    expect((await post(z.id, { name: 'ns1.sub', type: 'AAAA', content: '2001:db8::53' })).status).toBe(201);
    expect((await post(z.id, { name: 'sub', type: 'A', content: '192.0.2.54' })).status).toBe(201);
    const ds = '1 13 2 49FD46E6C4B45C55D4AC69CBD3CD34AC1AFE51DE49FD46E6C4B45C55D4AC69CB';
    expect((await post(z.id, { name: 'sub', type: 'DS', content: ds })).status).toBe(201);

    const below = await post(z.id, { name: 'www.sub', type: 'TXT', content: '"hidden"' });
    expect(below.status).toBe(422);
    expect(below.body.detail[0]).toMatchObject({
      loc: ['body', 'name'],
      msg: 'Only A/AAAA glue records may be placed below the delegation at sub.deleg.example (TXT is not glue)',
    });
    const atCut = await post(z.id, { name: 'sub', type: 'MX', content: '10 mx' });
    expect(atCut.status).toBe(422);
    expect(atCut.body.detail[0].msg).toBe(
      'Only NS, DS and glue A/AAAA records may be placed at the delegation point sub.deleg.example',
    );
    const dsNoCut = await post(z.id, { name: 'nocut', type: 'DS', content: ds });
    expect(dsNoCut.status).toBe(422);
    expect(dsNoCut.body.detail[0].msg).toBe(
      'DS records must be placed at a delegation point (a name with NS records)',
    );
    // An NS that would hide existing data conflicts.
    expect((await post(z.id, { name: 'www.busy', type: 'TXT', content: '"x"' })).status).toBe(201);
    const hide = await post(z.id, { name: 'busy', type: 'NS', content: 'ns.example.net.' });
    expect(hide.status).toBe(409);
    expect(hide.body).toEqual({
      detail:
        'Names below busy.deleg.example already have records that a delegation would hide; remove them first',
    });
    // The last NS cannot go while DS remains.
    const ns = (
      await t.request('GET', `${ZONES}/${z.id}/records?name=sub.deleg.example&record_type=ns`, {
        token: alice,
      })
    ).body as Rec[];
    expect(ns).toHaveLength(1);
    const lastNs = await t.request('DELETE', `${ZONES}/${z.id}/records/${ns[0]!.id}`, { token: alice });
    expect(lastNs.status).toBe(409);
    expect(lastNs.body).toEqual({
      detail: 'Remove the DS records at sub.deleg.example before its last NS record',
    });
  });

  it('lists by name then type with paging 100/1000 and filters', async () => {
    const z = await zone('list.example');
    const file = Array.from(
      { length: 120 },
      (_, i) => `h${String(i).padStart(3, '0')} 300 IN A 192.0.2.${i}`,
    );
    file.push('h000 300 IN TXT "t"', 'h000 300 IN AAAA 2001:db8::1', '@ 300 IN MX 10 mx');
    const imp = await t.request('POST', `${ZONES}/${z.id}/import`, {
      token: alice,
      body: { zone_file: file.join('\n') },
    });
    expect(imp.body.imported).toBe(123);
    const list = (q = '') => t.request('GET', `${ZONES}/${z.id}/records${q}`, { token: alice });
    const first = await list();
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(100);
    expect((first.body as Rec[]).slice(0, 4).map((r) => `${r.name} ${r.type}`)).toEqual([
      'h000.list.example A',
      'h000.list.example AAAA',
      'h000.list.example TXT',
      'h001.list.example A',
    ]);
    const all = (await list('?per_page=1000')).body as Rec[];
    expect(all).toHaveLength(123);
    const keys = all.map((r) => `${r.name}\u0000${r.type}`);
    expect(keys).toEqual([...keys].sort());
    expect((await list('?page=2')).body).toHaveLength(23);
    expect((await list('?page=2')).body[0]).toEqual(all[100]);
    expect((await list('?page=3')).body).toEqual([]);
    expect((await list('?page=7&per_page=20')).body).toEqual(all.slice(120, 123));
    for (const q of ['?per_page=0', '?per_page=1001', '?page=0']) {
      const res = await list(q);
      expect(res.status, q).toBe(422);
      expect(res.body.detail[0].loc[0]).toBe('query');
    }
    expect(((await list('?record_type=aaaa')).body as Rec[]).map((r) => r.content)).toEqual(['2001:db8::1']);
    expect((await list('?record_type=Mx')).body).toHaveLength(1);
    expect((await list('?record_type=A&per_page=1000')).body).toHaveLength(120);
    expect((await list('?record_type=NOPE')).body).toEqual([]);
    const byName = (await list('?name=h000.list.example')).body as Rec[];
    expect(byName.map((r) => r.type)).toEqual(['A', 'AAAA', 'TXT']);
    expect((await list('?name=H000.list.example.')).body).toEqual(byName);
    expect((await list('?name=h000.list.example&record_type=txt')).body).toHaveLength(1);
    expect((await list('?name=nothing.list.example')).body).toEqual([]);
  });

  it('replaces and deletes records by id, moving the serial on each change and not on a no-op', async () => {
    const z = await zone('put.example');
    let serial = await serialOf(z.id);
    const created = (await post(z.id, { name: 'www', type: 'A', content: '192.0.2.1' })).body as Rec;
    expect(await serialOf(z.id)).toBeGreaterThan(serial);
    serial = await serialOf(z.id);

    const url = `${ZONES}/${z.id}/records/${created.id}`;
    const same = await t.request('PUT', url, {
      token: alice,
      body: { name: 'www.put.example.', type: 'a', content: '192.0.2.1', ttl: 300 },
    });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(created);
    expect(await serialOf(z.id)).toBe(serial);

    const put = await t.request('PUT', url, {
      token: alice,
      body: { name: 'web', type: 'AAAA', content: '2001:db8::2', ttl: 600 },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      id: created.id,
      name: 'web.put.example',
      type: 'AAAA',
      content: '2001:db8::2',
      ttl: 600,
      created_at: created.created_at,
    });
    expect(await serialOf(z.id)).toBeGreaterThan(serial);
    serial = await serialOf(z.id);

    const ttlOnly = await t.request('PUT', url, {
      token: alice,
      body: { name: 'web', type: 'AAAA', content: '2001:db8::2', ttl: 60 },
    });
    expect(ttlOnly.body.ttl).toBe(60);
    expect(await serialOf(z.id)).toBeGreaterThan(serial);
    serial = await serialOf(z.id);

    const bad = await t.request('PUT', url, {
      token: alice,
      body: { name: 'web', type: 'AAAA', content: 'x' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'content']);
    const partial = await t.request('PUT', url, { token: alice, body: { content: '192.0.2.1' } });
    expect(partial.status).toBe(422);
    expect(await serialOf(z.id)).toBe(serial);

    // A PUT that would make an identical record, or break the CNAME rule, conflicts.
    const other = (await post(z.id, { name: 'other', type: 'A', content: '192.0.2.7' })).body as Rec;
    serial = await serialOf(z.id);
    const dup = await t.request('PUT', url, {
      token: alice,
      body: { name: 'other', type: 'A', content: '192.0.2.7' },
    });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ detail: 'Record already exists' });
    const cname = await t.request('PUT', url, {
      token: alice,
      body: { name: 'other', type: 'CNAME', content: 'web' },
    });
    expect(cname.status).toBe(409);
    expect(await serialOf(z.id)).toBe(serial);
    // Replacing the only record at a name with a CNAME is fine.
    const lone = await t.request('PUT', `${ZONES}/${z.id}/records/${other.id}`, {
      token: alice,
      body: { name: 'other', type: 'CNAME', content: 'web' },
    });
    expect(lone.status).toBe(200);
    serial = await serialOf(z.id);

    const del = await t.request('DELETE', url, { token: alice });
    expect(del.status).toBe(204);
    expect(await serialOf(z.id)).toBeGreaterThan(serial);
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { name: 'a', type: 'A', content: '192.0.2.1' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.request(method, url, { token: alice, ...(body ? { body } : {}) });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Record not found' });
    }
    // A record of another zone (same owner) is not found through this zone.
    const z2 = await zone('put2.example');
    const rec2 = (await post(z2.id, { name: 'x', type: 'A', content: '192.0.2.1' })).body as Rec;
    expect((await t.request('GET', `${ZONES}/${z.id}/records/${rec2.id}`, { token: alice })).body).toEqual({
      detail: 'Record not found',
    });
    expect((await t.request('GET', `${ZONES}/${z.id}/records/abc`, { token: alice })).status).toBe(422);
  });

  it('hides another account’s records on every record route', async () => {
    const z = await zone('iso.example');
    const rec = (await post(z.id, { name: 'www', type: 'A', content: '192.0.2.1' })).body as Rec;
    const serial = await serialOf(z.id);
    const body = { name: 'www', type: 'A', content: '192.0.2.66' };
    for (const [method, path, b] of [
      ['GET', `${ZONES}/${z.id}/records`],
      ['POST', `${ZONES}/${z.id}/records`, body],
      ['GET', `${ZONES}/${z.id}/records/${rec.id}`],
      ['PUT', `${ZONES}/${z.id}/records/${rec.id}`, body],
      ['DELETE', `${ZONES}/${z.id}/records/${rec.id}`],
    ] as const) {
      const res = await t.request(method, path, { token: bob, ...(b ? { body: b } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual({ detail: 'Zone not found' });
    }
    // Bob's own zone cannot reach Alice's record id either.
    const bz = await zone('iso-bob.example', bob);
    expect((await t.request('GET', `${ZONES}/${bz.id}/records/${rec.id}`, { token: bob })).body).toEqual({
      detail: 'Record not found',
    });
    expect((await t.request('DELETE', `${ZONES}/${bz.id}/records/${rec.id}`, { token: bob })).status).toBe(
      404,
    );
    expect(await serialOf(z.id)).toBe(serial);
    expect((await t.request('GET', `${ZONES}/${z.id}/records`, { token: alice })).body).toEqual([rec]);
  });
});
