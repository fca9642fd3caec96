import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createZone, ZONES } from '../../../testing/dns-api-fixture.ts';
import { queryUdp } from '../../../testing/dns-client.ts';
import { eventually } from '../../../testing/eventually.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import type { DnsModule } from '../dns-module.ts';

describe('managed records: the DNS module interface for other modules', () => {
  let t: TestApp;
  let dns: DnsModule;
  beforeAll(async () => {
    t = await startTestApp();
    dns = t.node.modules.find((m) => m.name === 'dns') as DnsModule;
  });
  afterAll(async () => t?.close());

  const txtAt = async (name: string): Promise<string[]> => {
    const q = dnsPacket.encode({
      type: 'query',
      id: 7,
      flags: 0,
      questions: [{ type: 'TXT', class: 'IN', name }],
    });
    const res = await queryUdp(q, { host: '127.0.0.1', port: t.node.dns!.udpPort });
    return (res.decoded?.answers ?? []).map((a) => Buffer.concat((a as { data: Buffer[] }).data).toString());
  };

  it('finds the hosted zone holding a name, the closest enclosing one', async () => {
    const { token } = await t.signUp();
    const zone = await createZone(t, token, 'managed.example');
    const sub = await createZone(t, token, 'deep.sub.managed.example');
    expect(await dns.managedRecords.findZoneFor('_acme-challenge.www.managed.example')).toMatchObject({
      zoneId: zone.id,
      domain: 'managed.example',
    });
    expect(await dns.managedRecords.findZoneFor('x.deep.sub.managed.example.')).toMatchObject({
      zoneId: sub.id,
    });
    expect(await dns.managedRecords.findZoneFor('managed.example')).toMatchObject({ zoneId: zone.id });
    expect(await dns.managedRecords.findZoneFor('other.invalid')).toBeNull();
  });

  it('publishes records a module owns: served, listed, exported, but not the user’s to change', async () => {
    const { token } = await t.signUp();
    const zone = await createZone(t, token, 'owned.example');
    const put = await dns.managedRecords.put('certificates', zone.id, [
      { name: '_acme-challenge.owned.example', type: 'TXT', content: '"token-one"', ttl: 60 },
      { name: '_acme-challenge', type: 'TXT', content: '"token-two"', ttl: 60 },
    ]);
    expect(put).toHaveLength(2);
    await eventually(async () => (await txtAt('_acme-challenge.owned.example')).length === 2);

    const list = await t.request('GET', `${ZONES}/${zone.id}/records`, { token });
    const managed = list.body.filter((r: { name: string }) => r.name === '_acme-challenge.owned.example');
    expect(managed).toHaveLength(2);
    const exported = await t.request('GET', `${ZONES}/${zone.id}/export`, { token });
    expect(exported.text).toContain('"token-one"');

    const id = managed[0].id as number;
    const edit = await t.request('PUT', `${ZONES}/${zone.id}/records/${id}`, {
      token,
      body: { name: '_acme-challenge', type: 'TXT', content: '"mine"' },
    });
    expect(edit.status).toBe(409);
    expect(edit.body).toEqual({ detail: 'Record is managed by certificates' });
    expect(edit.headers.get('x-error-code')).toBe('dns.record_managed');
    const del = await t.request('DELETE', `${ZONES}/${zone.id}/records/${id}`, { token });
    expect(del.status).toBe(409);
    expect(del.body).toEqual({ detail: 'Record is managed by certificates' });

    // put() is idempotent and replaces only the pairs it names.
    const serial = (await t.request('GET', `${ZONES}/${zone.id}`, { token })).body.serial;
    await dns.managedRecords.put('certificates', zone.id, [
      { name: '_acme-challenge', type: 'TXT', content: '"token-one"', ttl: 60 },
      { name: '_acme-challenge', type: 'TXT', content: '"token-two"', ttl: 60 },
    ]);
    expect((await t.request('GET', `${ZONES}/${zone.id}`, { token })).body.serial).toBe(serial);
    await dns.managedRecords.put('certificates', zone.id, [
      { name: '_acme-challenge', type: 'TXT', content: '"token-three"', ttl: 60 },
    ]);
    await eventually(async () => (await txtAt('_acme-challenge.owned.example')).join() === 'token-three');

    expect(await dns.managedRecords.list('certificates', zone.id)).toMatchObject([
      {
        zoneId: zone.id,
        name: '_acme-challenge.owned.example',
        type: 'TXT',
        content: '"token-three"',
        ttl: 60,
      },
    ]);
    expect(await dns.managedRecords.list('mail', zone.id)).toEqual([]);
    expect(
      await dns.managedRecords.remove('certificates', zone.id, '_acme-challenge.owned.example', 'TXT'),
    ).toBe(1);
    await eventually(async () => (await txtAt('_acme-challenge.owned.example')).length === 0);
  });

  it('validates as the record routes do, and cleans a module’s records everywhere', async () => {
    const { token } = await t.signUp();
    const a = await createZone(t, token, 'clean-a.example');
    const b = await createZone(t, token, 'clean-b.example');
    await expect(
      dns.managedRecords.put('mail', a.id, [{ name: '@', type: 'CNAME', content: 'x.example.' }]),
    ).rejects.toMatchObject({ status: 422 });
    await dns.managedRecords.put('mail', a.id, [
      { name: 'sel._domainkey', type: 'TXT', content: '"v=DKIM1; p=AAAA"' },
    ]);
    await dns.managedRecords.put('mail', b.id, [
      { name: 'sel._domainkey', type: 'TXT', content: '"v=DKIM1; p=BBBB"' },
    ]);
    await t.request('POST', `${ZONES}/${a.id}/records`, {
      token,
      body: { name: 'www', type: 'A', content: '192.0.2.10' },
    });
    expect(await dns.managedRecords.cleanup('mail')).toBe(2);
    expect(await dns.managedRecords.list('mail')).toEqual([]);
    const left = await t.request('GET', `${ZONES}/${a.id}/records`, { token });
    expect(left.body.map((r: { name: string }) => r.name)).toEqual(['www.clean-a.example']);
  });
});
