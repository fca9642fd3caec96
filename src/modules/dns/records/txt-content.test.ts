import { Resolver } from 'node:dns/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createZone, ZONES } from '../../../testing/dns-api-fixture.ts';
import { eventually } from '../../../testing/eventually.ts';
import { freePort } from '../../../testing/free-port.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

describe('TXT content as users paste it', () => {
  let t: TestApp;
  let token: string;
  let zoneId: number;
  const resolver = new Resolver({ timeout: 1000, tries: 2 });
  beforeAll(async () => {
    const dnsPort = await freePort();
    t = await startTestApp({ env: { DNS_PORT: String(dnsPort) } });
    resolver.setServers([`127.0.0.1:${dnsPort}`]);
    token = (await t.signUp()).token;
    zoneId = (await createZone(t, token, 'txt.example')).id;
  });
  afterAll(async () => t?.close());

  const add = (name: string, content: string) =>
    t.request('POST', `${ZONES}/${zoneId}/records`, { token, body: { name, type: 'TXT', content } });

  it('keeps unquoted content one string, spaces and all: SPF works as pasted', async () => {
    const res = await add('@', 'v=spf1 include:_spf.example.net ~all');
    expect(res.status, res.text).toBe(201);
    expect(res.body.content).toBe('"v=spf1 include:_spf.example.net ~all"');
    await eventually(async () =>
      expect(await resolver.resolveTxt('txt.example')).toEqual([['v=spf1 include:_spf.example.net ~all']]),
    );
  });

  it('cuts unquoted content over 255 octets into 255-octet strings, in order', async () => {
    const key = `v=DKIM1; k=rsa; p=${'A'.repeat(380)}`;
    const res = await add('long', key);
    expect(res.status, res.text).toBe(201);
    const strings = await eventually(async () => {
      const found = await resolver.resolveTxt('long.txt.example');
      expect(found).toHaveLength(1);
      return found[0]!;
    });
    expect(strings.map((s) => s.length)).toEqual([255, key.length - 255]);
    expect(strings.join('')).toBe(key);
  });

  it('keeps the presentation form for quoted content: several strings, escapes', async () => {
    const res = await add('quoted', '"first string" "second \\"string\\""');
    expect(res.status, res.text).toBe(201);
    await eventually(async () =>
      expect(await resolver.resolveTxt('quoted.txt.example')).toEqual([['first string', 'second "string"']]),
    );
    const bad = await add('bad', '"unterminated');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['body', 'content'] });
  });

  it('stores literal quotes and backslashes of unquoted content, and exports every string quoted', async () => {
    const res = await add('literal', 'say "hi" \\o/');
    expect(res.status, res.text).toBe(201);
    expect(res.body.content).toBe('"say \\"hi\\" \\\\o/"');
    const exported = await t.request('GET', `${ZONES}/${zoneId}/export`, { token });
    expect(exported.text).toContain('txt.example. 300 IN TXT "v=spf1 include:_spf.example.net ~all"');
    expect(exported.text).toContain('literal.txt.example. 300 IN TXT "say \\"hi\\" \\\\o/"');
  });
});
