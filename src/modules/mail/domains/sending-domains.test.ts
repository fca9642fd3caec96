/**
 * Sending domains over real HTTP, with the product's own DNS node as the resolver the checks
 * ask: a domain whose zone the relay's holder hosts here is published as managed records and
 * verified at once; one hosted by someone else is not touched, and verifies once its holder
 * publishes the records by hand; deleting withdraws what was published.
 */
import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createZone, ZONES } from '../../../testing/dns-api-fixture.ts';
import { queryUdp } from '../../../testing/dns-client.ts';
import { eventually } from '../../../testing/eventually.ts';
import { freePorts } from '../../../testing/free-port.ts';
import { orderRelay, RELAY } from '../../../testing/mail-relay-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

describe('mail relay: sending domains and their DNS records', () => {
  let t: TestApp;
  let dnsPort: number;
  let alice: string;
  let bob: string;
  let relay: number;

  beforeAll(async () => {
    [dnsPort] = (await freePorts(1)) as [number];
    t = await startTestApp({
      env: {
        DNS_PORT: String(dnsPort),
        MAIL_CHECK_RESOLVER: `127.0.0.1:${dnsPort}`,
        MAIL_BOUNCE_DOMAIN: 'bounces.relay.test',
        MAIL_SPF_INCLUDE: '_spf.relay.test',
      },
    });
    alice = (await t.signUp()).token;
    bob = (await t.signUp()).token;
    relay = await orderRelay(t, alice);
  });
  afterAll(async () => t?.close());

  const txt = async (name: string): Promise<string[]> => {
    const q = dnsPacket.encode({
      type: 'query',
      id: 3,
      flags: 0,
      questions: [{ type: 'TXT', class: 'IN', name }],
    });
    const res = await queryUdp(q, { host: '127.0.0.1', port: dnsPort });
    return (res.decoded?.answers ?? [])
      .filter((a) => a.type === 'TXT')
      .map((a) => (a as { data: Buffer[] }).data.map((b) => b.toString()).join(''));
  };
  const add = (domain: string, token = alice, service = relay) =>
    t.request('POST', `${RELAY}/${service}/domains`, { token, body: { domain } });

  it("publishes the records in the holder's own zone and verifies at once", async () => {
    const zone = await createZone(t, alice, 'brand.test');
    const res = await add('Mail.Brand.test');
    expect(res.status, res.text).toBe(201);
    const selector = res.body.dkim_selector as string;
    expect(selector).toMatch(/^rl[a-z2-7]{8}$/);
    expect(res.body).toEqual({
      domain: 'mail.brand.test',
      status: 'verified',
      dkim_selector: selector,
      hosted_here: true,
      records: [
        {
          purpose: 'dkim',
          name: `${selector}._domainkey.mail.brand.test`,
          type: 'TXT',
          value: expect.stringMatching(
            /^v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA[A-Za-z0-9+/]+=*$/,
          ),
          verified: true,
          reason: null,
        },
        {
          purpose: 'spf',
          name: 'mail.brand.test',
          type: 'TXT',
          value: 'v=spf1 include:_spf.relay.test ~all',
          verified: true,
          reason: null,
        },
        {
          purpose: 'return_path',
          name: 'bounces.mail.brand.test',
          type: 'CNAME',
          value: 'bounces.relay.test',
          verified: true,
          reason: null,
        },
      ],
      verified_at: expect.any(String),
      checked_at: expect.any(String),
      created_at: expect.any(String),
    });
    // Served by our DNS: the key record in 255-byte strings that join to the value.
    const dkim = res.body.records[0];
    await eventually(async () => expect(await txt(dkim.name)).toEqual([dkim.value]));
    expect(await txt('mail.brand.test')).toEqual(['v=spf1 include:_spf.relay.test ~all']);
    // Managed: in the zone, not the user's to change.
    const records = (await t.request('GET', `${ZONES}/${zone.id}/records`, { token: alice })).body as {
      id: number;
      name: string;
    }[];
    const managed = records.find((r) => r.name === dkim.name)!;
    const edit = await t.request('DELETE', `${ZONES}/${zone.id}/records/${managed.id}`, { token: alice });
    expect([edit.status, edit.body]).toEqual([409, { detail: 'Record is managed by mail' }]);
    // The verify route agrees, through the resolver.
    const verify = await t.request('POST', `${RELAY}/${relay}/domains/mail.brand.test/verify`, {
      token: alice,
    });
    expect(verify.body.status).toBe('verified');
    expect(verify.body.records.map((r: { verified: boolean }) => r.verified)).toEqual([true, true, true]);

    expect((await add('mail.brand.test')).status).toBe(409);
    const list = await t.request('GET', `${RELAY}/${relay}/domains`, { token: alice });
    expect(list.body.map((d: { domain: string }) => d.domain)).toEqual(['mail.brand.test']);

    expect(
      (await t.request('DELETE', `${RELAY}/${relay}/domains/mail.brand.test`, { token: alice })).status,
    ).toBe(204);
    // Each record leaves in its own zone change: wait for the last.
    await eventually(async () => {
      expect(await txt(dkim.name)).toEqual([]);
      expect(await txt('mail.brand.test')).toEqual([]);
    });
    expect(
      (await t.request('DELETE', `${RELAY}/${relay}/domains/mail.brand.test`, { token: alice })).status,
    ).toBe(404);
  });

  it("leaves another holder's zone alone; verifies once the records are published by hand", async () => {
    const zone = await createZone(t, bob, 'bobs.test');
    const res = await add('bobs.test');
    expect(res.body).toMatchObject({ status: 'pending', hosted_here: false });
    const dkim = res.body.records[0];
    expect(await txt(dkim.name)).toEqual([]);
    const before = await t.request('POST', `${RELAY}/${relay}/domains/bobs.test/verify`, { token: alice });
    expect(before.body.status).toBe('pending');
    expect(before.body.records.map((r: { verified: boolean }) => r.verified)).toEqual([false, false, false]);

    // Bob publishes the DKIM key and SPF (not the return-path name: reported, not required).
    const put = (name: string, content: string) =>
      t.request('POST', `${ZONES}/${zone.id}/records`, {
        token: bob,
        body: { name, type: 'TXT', content, ttl: 300 },
      });
    const quoted = (v: string) => (v.match(/.{1,255}/g) ?? []).map((p) => `"${p}"`).join(' ');
    expect((await put(`${dkim.name}.`, quoted(dkim.value))).status).toBe(201);
    expect((await put('@', '"v=spf1 include:_spf.relay.test ~all"')).status).toBe(201);
    const after = await eventually(async () => {
      const v = await t.request('POST', `${RELAY}/${relay}/domains/bobs.test/verify`, { token: alice });
      expect(v.body.status).toBe('verified');
      return v.body;
    });
    expect(after.records.map((r: { verified: boolean }) => r.verified)).toEqual([true, true, false]);
  });

  it('checks the name, the caller and the relay', async () => {
    for (const domain of ['not a domain', 'localhost', '-bad.test', 'a..b.test', `${'a'.repeat(250)}.test`]) {
      const res = await add(domain);
      expect(res.status, domain).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', 'domain']);
    }
    expect((await add('x.test', bob)).status).toBe(404);
    expect((await t.request('GET', `${RELAY}/${relay}/domains`, { token: bob })).status).toBe(404);
    // A service that is not a relay is not found here either.
    const dns = await t.request('POST', '/api/v1/services/order', {
      token: alice,
      body: { product_id: 1, pricing_id: 1 },
    });
    expect((await add('x.test', alice, dns.body.id)).status).toBe(404);
  });

  it('merges our include into an SPF record the zone already has (RFC 7208 §4.5: one record), and takes it out again', async () => {
    const zone = await createZone(t, alice, 'has-spf.test');
    const put = (name: string, content: string) =>
      t.request('POST', `${ZONES}/${zone.id}/records`, {
        token: alice,
        body: { name, type: 'TXT', content },
      });
    expect((await put('@', '"v=spf1 ip4:192.0.2.1 mx -all"')).status).toBe(201);
    expect((await put('@', '"google-site-verification=abc"')).status).toBe(201);
    const res = await add('has-spf.test');
    expect(res.status, res.text).toBe(201);
    expect(res.body.status).toBe('verified');
    await eventually(async () =>
      expect((await txt('has-spf.test')).sort()).toEqual([
        'google-site-verification=abc',
        'v=spf1 ip4:192.0.2.1 mx include:_spf.relay.test -all',
      ]),
    );
    const verify = await t.request('POST', `${RELAY}/${relay}/domains/has-spf.test/verify`, { token: alice });
    expect(verify.body.status).toBe('verified');
    expect(verify.body.records[1]).toMatchObject({ purpose: 'spf', verified: true, reason: null });

    // Removing the domain restores the record as it was, and leaves the other TXT alone.
    expect(
      (await t.request('DELETE', `${RELAY}/${relay}/domains/has-spf.test`, { token: alice })).status,
    ).toBe(204);
    await eventually(async () =>
      expect((await txt('has-spf.test')).sort()).toEqual([
        'google-site-verification=abc',
        'v=spf1 ip4:192.0.2.1 mx -all',
      ]),
    );
  });

  it('leaves two SPF records as they are, adds no third, and says why it is not verified', async () => {
    const zone = await createZone(t, alice, 'two-spf.test');
    for (const content of ['"v=spf1 mx -all"', '"v=spf1 a -all"'])
      expect(
        (
          await t.request('POST', `${ZONES}/${zone.id}/records`, {
            token: alice,
            body: { name: '@', type: 'TXT', content },
          })
        ).status,
      ).toBe(201);
    const res = await add('two-spf.test');
    expect(res.status, res.text).toBe(201);
    expect(res.body.status).toBe('pending');
    expect(res.body.records[1]).toMatchObject({
      purpose: 'spf',
      verified: false,
      reason: 'More than one SPF record',
    });
    await eventually(async () =>
      expect((await txt('two-spf.test')).sort()).toEqual(['v=spf1 a -all', 'v=spf1 mx -all']),
    );
    expect(
      (await t.request('DELETE', `${RELAY}/${relay}/domains/two-spf.test`, { token: alice })).status,
    ).toBe(204);
    await eventually(async () =>
      expect((await txt('two-spf.test')).sort()).toEqual(['v=spf1 a -all', 'v=spf1 mx -all']),
    );
  });

  it('keeps our include while another relay still sends from the domain', async () => {
    const zone = await createZone(t, alice, 'shared-spf.test');
    expect(
      (
        await t.request('POST', `${ZONES}/${zone.id}/records`, {
          token: alice,
          body: { name: '@', type: 'TXT', content: '"v=spf1 mx ~all"' },
        })
      ).status,
    ).toBe(201);
    const second = await orderRelay(t, alice);
    expect((await add('shared-spf.test')).body.status).toBe('verified');
    expect((await add('shared-spf.test', alice, second)).body.status).toBe('verified');
    const merged = 'v=spf1 mx include:_spf.relay.test ~all';
    await eventually(async () => expect(await txt('shared-spf.test')).toEqual([merged]));
    const remove = (service: number) =>
      t.request('DELETE', `${RELAY}/${service}/domains/shared-spf.test`, { token: alice });
    expect((await remove(relay)).status).toBe(204);
    expect(await txt('shared-spf.test')).toEqual([merged]);
    const still = await t.request('POST', `${RELAY}/${second}/domains/shared-spf.test/verify`, {
      token: alice,
    });
    expect(still.body.status).toBe('verified');
    expect((await remove(second)).status).toBe(204);
    await eventually(async () => expect(await txt('shared-spf.test')).toEqual(['v=spf1 mx ~all']));
  });

  it('removes the SPF record it made when the domain goes', async () => {
    await createZone(t, alice, 'no-spf.test');
    expect((await add('no-spf.test')).body.status).toBe('verified');
    await eventually(async () =>
      expect(await txt('no-spf.test')).toEqual(['v=spf1 include:_spf.relay.test ~all']),
    );
    expect(
      (await t.request('DELETE', `${RELAY}/${relay}/domains/no-spf.test`, { token: alice })).status,
    ).toBe(204);
    await eventually(async () => expect(await txt('no-spf.test')).toEqual([]));
  });

  it('verify says spf false, and why, unless exactly one valid SPF record includes ours', async () => {
    const zone = await createZone(t, bob, 'spf-cases.test');
    const res = await add('spf-cases.test');
    expect(res.body.status).toBe('pending');
    const ids: number[] = [];
    const put = async (content: string) => {
      const r = await t.request('POST', `${ZONES}/${zone.id}/records`, {
        token: bob,
        body: { name: '@', type: 'TXT', content, ttl: 60 },
      });
      expect(r.status, r.text).toBe(201);
      ids.push(r.body.id);
    };
    const clear = async () => {
      for (const id of ids.splice(0))
        await t.request('DELETE', `${ZONES}/${zone.id}/records/${id}`, { token: bob });
    };
    const spf = async () => {
      const v = await t.request('POST', `${RELAY}/${relay}/domains/spf-cases.test/verify`, { token: alice });
      return {
        status: v.body.status,
        ...v.body.records.find((r: { purpose: string }) => r.purpose === 'spf'),
      };
    };
    expect(await spf()).toMatchObject({ verified: false, reason: 'No SPF record' });
    // Two records: a permanent error at receivers (RFC 7208 §4.5), even when one includes ours.
    await put('"v=spf1 include:_spf.relay.test ~all"');
    await put('"v=spf1 mx -all"');
    await eventually(async () =>
      expect(await spf()).toMatchObject({
        status: 'pending',
        verified: false,
        reason: 'More than one SPF record',
      }),
    );
    await clear();
    await put('"v=spf1 mx -all"');
    await eventually(async () =>
      expect(await spf()).toMatchObject({
        verified: false,
        reason: 'The SPF record does not include _spf.relay.test',
      }),
    );
    await clear();
    await put('"v=spf1 include:_spf.relay.test frobnicate -all"');
    await eventually(async () =>
      expect(await spf()).toMatchObject({
        verified: false,
        reason: 'The SPF record is not valid: unknown mechanism "frobnicate"',
      }),
    );
    await clear();
    await put('"v=spf1 ip4:198.51.100.0/24 include:_spf.relay.test ~all"');
    await eventually(async () => expect(await spf()).toMatchObject({ verified: true, reason: null }));
  });
});
