import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createZone, ZONES } from '../../../testing/dns-api-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

interface Rec {
  id: number;
  name: string;
  type: string;
  content: string;
  ttl: number;
}

describe('DNS zone file import and export', () => {
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
  const importFile = (zoneId: number, zone_file: string, token = alice) =>
    t.request('POST', `${ZONES}/${zoneId}/import`, { token, body: { zone_file } });
  const records = async (zoneId: number): Promise<Rec[]> =>
    (await t.request('GET', `${ZONES}/${zoneId}/records?per_page=1000`, { token: alice })).body;
  const zoneOf = async (zoneId: number) =>
    (await t.request('GET', `${ZONES}/${zoneId}`, { token: alice })).body;
  const shape = (rs: Rec[]) => rs.map((r) => `${r.name} ${r.ttl} ${r.type} ${r.content}`);

  it('imports a simple file, reports the skipped apex SOA/NS, moves the serial', async () => {
    const z = await zone('simple.example');
    const res = await importFile(
      z.id,
      [
        '$TTL 600',
        '@ IN SOA ns1.example.net. hostmaster 1 7200 3600 1209600 300',
        '@ IN NS ns1.example.net.',
        '@ IN NS ns2.example.net.',
        'www IN A 192.0.2.1',
        '',
      ].join('\n'),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      imported: 1,
      skipped: [
        { line: 2, reason: 'SOA at the zone apex is managed by the platform' },
        { line: 3, reason: 'NS at the zone apex is managed by the platform' },
        { line: 4, reason: 'NS at the zone apex is managed by the platform' },
      ],
    });
    expect(shape(await records(z.id))).toEqual(['www.simple.example 600 A 192.0.2.1']);
    const after = await zoneOf(z.id);
    expect(after.record_count).toBe(1);
    expect(after.serial).toBeGreaterThan(z.serial);

    // Identical records (an existing one, or twice in the file) are skipped; nothing new → serial stays.
    const again = await importFile(z.id, 'www 60 IN A 192.0.2.1\nwww IN A 192.0.2.1\n');
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      imported: 0,
      skipped: [
        { line: 1, reason: 'identical record already exists' },
        { line: 2, reason: 'identical record already exists' },
      ],
    });
    expect((await zoneOf(z.id)).serial).toBe(after.serial);
    const twice = await importFile(z.id, 'dup IN A 192.0.2.2\ndup IN A 192.0.2.2\n');
    expect(twice.body).toEqual({
      imported: 1,
      skipped: [{ line: 2, reason: 'identical record already exists' }],
    });
    expect((await importFile(z.id, '')).body).toEqual({ imported: 0, skipped: [] });
  });

  it('imports the hard cases of RFC 1035 syntax', async () => {
    const z = await zone('corpus.example');
    const file = String.raw`; a comment line
$ORIGIN corpus.example.
$TTL 1h
@   IN  SOA ns1.example.net. hostmaster.corpus.example. (
            2024010101 ; serial
            7200       ; refresh
            3600       ; retry
            1209600    ; expire
            300 )      ; minimum
    IN  NS  ns1.example.net.
    NS  ns2.example.net.
@       IN 300 A 192.0.2.1          ; class then TTL
        600 IN AAAA 2001:db8::1     ; blank owner: previous owner, TTL then class
        MX  10 mail                 ; relative exchange
        MX  20 mail.example.net.
        TXT "v=spf1 mx -all"
        TXT "several" "strings here" "and \"quotes\" and \\ and \059 semicolon"
        TXT unquoted-word
mail    A   192.0.2.25
escaped\.dot TXT "owner with an escaped dot"
*.wild  A   192.0.2.99
*.wild  AAAA 2001:db8::99
_sip._tcp SRV 10 60 5060 sip
sip     A   192.0.2.60
naptr   NAPTR 100 10 "S" "SIP+D2U" "" _sip._udp
naptr   NAPTR 100 20 "U" "E2U+sip" "!^.*$!sip:info@corpus.example!" .
@       CAA 0 issue "letsencrypt.org"
@       CAA 128 iodef "mailto:security@corpus.example"
_443._tcp.www TLSA 3 1 1 ( 0123456789abcdef0123456789abcdef
                          0123456789abcdef0123456789abcdef )
www     A   192.0.2.80
ssh     SSHFP 4 2 ( 0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF )
@       HTTPS 1 . alpn="h2,h3" port=443 ipv4hint=192.0.2.1
svc     SVCB 0 www
_8443._svc SVCB 2 www port=8443 alpn=h2
old     DNAME new.example.net.
gen     TYPE65000 \# 4 0a0b0c0d
gen     CLASS1 TYPE65001 \# 0
ptr.rev PTR www
$ORIGIN sub.corpus.example.
@       NS  ns1
@       NS  ns.example.net.
@       DS  12345 13 2 49FD46E6C4B45C55D4AC69CBD3CD34AC1AFE51DE49FD46E6C4B45C55D4AC69CB
ns1     A   192.0.2.53
ns1     AAAA 2001:db8::53
$ORIGIN corpus.example.
$TTL 120
late    A   192.0.2.120
alias   30 CNAME www
`;
    const res = await importFile(z.id, file);
    expect(res.status, res.text).toBe(200);
    expect(res.body.skipped).toEqual([
      { line: 4, reason: 'SOA at the zone apex is managed by the platform' },
      { line: 10, reason: 'NS at the zone apex is managed by the platform' },
      { line: 11, reason: 'NS at the zone apex is managed by the platform' },
    ]);
    const got = shape(await records(z.id));
    expect(res.body.imported).toBe(got.length);
    expect(got).toEqual(
      [
        '_443._tcp.www.corpus.example 3600 TLSA 3 1 1 0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF',
        '_8443._svc.corpus.example 3600 SVCB 2 www.corpus.example. alpn=h2 port=8443', // keys in RFC 9460 order,
        '_sip._tcp.corpus.example 3600 SRV 10 60 5060 sip.corpus.example.',
        '*.wild.corpus.example 3600 A 192.0.2.99',
        '*.wild.corpus.example 3600 AAAA 2001:db8::99',
        'alias.corpus.example 30 CNAME www.corpus.example.',
        'corpus.example 300 A 192.0.2.1',
        'corpus.example 600 AAAA 2001:db8::1',
        'corpus.example 3600 CAA 0 issue "letsencrypt.org"',
        'corpus.example 3600 CAA 128 iodef "mailto:security@corpus.example"',
        'corpus.example 3600 HTTPS 1 . alpn=h2,h3 port=443 ipv4hint=192.0.2.1',
        'corpus.example 3600 MX 10 mail.corpus.example.',
        'corpus.example 3600 MX 20 mail.example.net.',
        'corpus.example 3600 TXT "v=spf1 mx -all"',
        'corpus.example 3600 TXT "several" "strings here" "and \\"quotes\\" and \\\\ and ; semicolon"',
        'corpus.example 3600 TXT "unquoted-word"',
        'escaped\\.dot.corpus.example 3600 TXT "owner with an escaped dot"',
        'gen.corpus.example 3600 TYPE65000 \\# 4 0A0B0C0D',
        'gen.corpus.example 3600 TYPE65001 \\# 0',
        'late.corpus.example 120 A 192.0.2.120',
        'mail.corpus.example 3600 A 192.0.2.25',
        'naptr.corpus.example 3600 NAPTR 100 10 "S" "SIP+D2U" "" _sip._udp.corpus.example.',
        'naptr.corpus.example 3600 NAPTR 100 20 "U" "E2U+sip" "!^.*$!sip:info@corpus.example!" .',
        'ns1.sub.corpus.example 3600 A 192.0.2.53',
        'ns1.sub.corpus.example 3600 AAAA 2001:db8::53',
        'old.corpus.example 3600 DNAME new.example.net.',
        'ptr.rev.corpus.example 3600 PTR www.corpus.example.',
        'sip.corpus.example 3600 A 192.0.2.60',
        'ssh.corpus.example 3600 SSHFP 4 2 0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF',
        'sub.corpus.example 3600 DS 12345 13 2 49FD46E6C4B45C55D4AC69CBD3CD34AC1AFE51DE49FD46E6C4B45C55D4AC69CB',
        'sub.corpus.example 3600 NS ns1.sub.corpus.example.',
        'sub.corpus.example 3600 NS ns.example.net.',
        'svc.corpus.example 3600 SVCB 0 www.corpus.example.',
        'www.corpus.example 3600 A 192.0.2.80',
      ].sort((a, b) => {
        const [an, , at] = a.split(' ');
        const [bn, , bt] = b.split(' ');
        return an! < bn! ? -1 : an! > bn! ? 1 : at! < bt! ? -1 : at! > bt! ? 1 : 0;
      }),
    );
  });

  it('refuses a file with errors, one entry per bad line (the line the record starts on), writing nothing', async () => {
    const z = await zone('errors.example');
    const file = [
      '$ORIGIN errors.example.', // 1
      'good A 192.0.2.1', // 2
      'bad1 A 300.0.0.1', // 3
      'bad2 MX ( 10', // 4
      '   mail', // 5
      '   nonsense )', // 6
      'bad3 CH TXT "chaos"', // 7
      'out.example.net. A 192.0.2.1', // 8
      '$INCLUDE other.zone', // 9
      'bad4 A 192.0.2.1 ; fine', // 10
      'bad4 NOTATYPE x', // 11
      '@ CNAME www', // 12
      'c CNAME www', // 13
      'c TXT "beside a cname"', // 14
      'ds DS 1 13 2 49FD46E6C4B45C55D4AC69CBD3CD34AC1AFE51DE49FD46E6C4B45C55D4AC69CB', // 15
      'x 99999999999 A 192.0.2.1', // 16
      '@ SOA ns. h. 1 2 3 4 5 6', // 17
      'also-good AAAA 2001:db8::1', // 18
      '$ORIGIN', // 19
      'bad5 RRSIG A 13 2 300 20250101000000 20240101000000 1 x. AAAA', // 20
    ].join('\n');
    const res = await importFile(z.id, file);
    expect(res.status).toBe(422);
    const lines = (res.body.detail as { loc: unknown[] }[]).map((d) => d.loc);
    for (const loc of lines) expect(loc.slice(0, 2)).toEqual(['body', 'zone_file']);
    const numbers = lines.map((l) => l[2] as number);
    expect(new Set(numbers).size).toBe(numbers.length);
    // Both new records of the CNAME conflict (13, 14) are blamed.
    expect(numbers).toEqual([3, 4, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 19, 20]);
    for (const n of [1, 2, 5, 6, 10, 18]) expect(numbers).not.toContain(n);
    for (const d of res.body.detail) {
      expect(d.type).toBe('value_error');
      expect(typeof d.msg).toBe('string');
    }
    const byLine = new Map(
      (res.body.detail as { loc: number[]; msg: string; input: string }[]).map((d) => [d.loc[2], d]),
    );
    expect(byLine.get(3)!.input).toBe('bad1 A 300.0.0.1');
    expect(byLine.get(12)!.msg).toBe('A CNAME record cannot be placed at the zone apex');
    expect(byLine.get(15)!.msg).toBe(
      'DS records must be placed at a delegation point (a name with NS records)',
    );

    const after = await zoneOf(z.id);
    expect(after.record_count).toBe(0);
    expect(after.serial).toBe(z.serial);
    expect(await records(z.id)).toEqual([]);

    // Body checks.
    const missing = await t.request('POST', `${ZONES}/${z.id}/import`, { token: alice, body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0].loc).toEqual(['body', 'zone_file']);
    const wrongType = await t.request('POST', `${ZONES}/${z.id}/import`, {
      token: alice,
      body: { zone_file: 1 },
    });
    expect(wrongType.status).toBe(422);
  });

  it('holds imported TTLs to the API range 1–2147483647 (0 refused, per line)', async () => {
    const z = await zone('ttl.example');
    const res = await importFile(z.id, 'ok 1 A 192.0.2.1\nzero 0 A 192.0.2.2\n$TTL 0\ninherit A 192.0.2.3\n');
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: { loc: unknown[]; msg: string }) => [d.loc[2], d.msg])).toEqual([
      [2, 'TTL must be from 1 to 2147483647, got 0'],
      [4, 'TTL must be from 1 to 2147483647, got 0'],
    ]);
    expect((await zoneOf(z.id)).record_count).toBe(0);
    const max = await importFile(z.id, 'max 2147483647 A 192.0.2.1\n');
    expect(max.status).toBe(200);
    expect((await records(z.id))[0]!.ttl).toBe(2147483647);
    // Without $TTL or an explicit TTL, records take the zone default (300).
    expect((await importFile(z.id, 'plain A 192.0.2.9\n')).status).toBe(200);
    expect((await records(z.id)).find((r) => r.name === 'plain.ttl.example')!.ttl).toBe(300);
  });

  it('reads CRLF line endings', async () => {
    const z = await zone('crlf.example');
    const res = await importFile(z.id, 'a A 192.0.2.1\r\nb A 192.0.2.2\r\nc A 300.0.0.1\r\n');
    expect(res.status).toBe(422);
    expect(res.body.detail).toHaveLength(1);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'zone_file', 3], input: 'c A 300.0.0.1' });
  });

  it('judges an import against what the zone already holds', async () => {
    const z = await zone('against.example');
    await t.request('POST', `${ZONES}/${z.id}/records`, {
      token: alice,
      body: { name: 'www', type: 'CNAME', content: 'target.example.net.' },
    });
    const res = await importFile(z.id, 'ok A 192.0.2.1\nwww A 192.0.2.1\n');
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      {
        type: 'value_error',
        loc: ['body', 'zone_file', 2],
        msg: 'A CNAME record cannot coexist with other records at the same name',
        input: 'www A 192.0.2.1',
        ctx: {},
      },
    ]);
    expect((await zoneOf(z.id)).record_count).toBe(1);
  });

  it('replaces: the zone’s records become exactly the file’s, in one change, managed records kept', async () => {
    const z = await zone('replace.example');
    expect(
      (await importFile(z.id, 'www 300 IN A 192.0.2.1\nold 300 IN A 192.0.2.9\n@ 300 IN MX 10 mail\n'))
        .status,
    ).toBe(200);
    const dns = t.node.modules.find((m) => m.name === 'dns') as unknown as {
      managedRecords: {
        put(
          module: string,
          zoneId: number,
          records: { name: string; type: string; content: string }[],
        ): Promise<unknown>;
      };
    };
    await dns.managedRecords.put('certificates', z.id, [
      { name: '_acme-challenge', type: 'TXT', content: '"token"' },
    ]);
    const serial = (await zoneOf(z.id)).serial as number;
    const replaceFile = (zone_file: string) =>
      t.request('POST', `${ZONES}/${z.id}/import`, { token: alice, body: { zone_file, mode: 'replace' } });

    // A bad line: 422, and nothing moved.
    const bad = await replaceFile('www 300 IN A 192.0.2.1\nnew 300 IN A 300.0.0.1\n');
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'zone_file', 2] })]);
    expect(shape(await records(z.id))).toHaveLength(4);

    const res = await replaceFile(
      [
        'www 300 IN A 192.0.2.1', // kept as it is
        'new 300 IN A 192.0.2.2', // added
        '@ 600 IN MX 10 mail', // another TTL: the old one goes, this one comes
        '_acme-challenge 300 IN TXT "token"', // another module's: left as it is
      ].join('\n'),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      imported: 2,
      added: 2,
      removed: 2,
      unchanged: 1,
      skipped: [{ line: 4, reason: 'record is managed by another module' }],
    });
    expect(shape(await records(z.id)).sort()).toEqual([
      '_acme-challenge.replace.example 300 TXT "token"',
      'new.replace.example 300 A 192.0.2.2',
      'replace.example 600 MX 10 mail.replace.example.',
      'www.replace.example 300 A 192.0.2.1',
    ]);
    expect((await zoneOf(z.id)).serial).toBeGreaterThan(serial);
    // The default stays merge: nothing is removed.
    expect((await importFile(z.id, 'more 300 IN A 192.0.2.3\n')).body).toEqual({ imported: 1, skipped: [] });
    expect(await records(z.id)).toHaveLength(5);
    const unknown = await t.request('POST', `${ZONES}/${z.id}/import`, {
      token: alice,
      body: { zone_file: '', mode: 'overwrite' },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0]).toMatchObject({ loc: ['body', 'mode'] });
  });

  it('exports $ORIGIN, SOA, NS then records as text/plain, and import(export) is a fixed point', async () => {
    const src = await zone('fixed.example');
    const file = String.raw`$ORIGIN fixed.example.
$TTL 3600
@ A 192.0.2.1
@ MX 10 mail
@ TXT "a b" "c\"d" "e\\f" "\200\255"
@ CAA 0 issue "ca.example.net; account=1"
@ HTTPS 1 . alpn=h2 ech=AEX+DQBBTQAgACCW2/dfOBZAtQU55/py/BlhdRdaauPAkrERAUwppoeSEgAEAAEAAQASY2xvdWRmbGFyZS1lY2guY29tAAA=
mail 60 A 192.0.2.25
mail AAAA 2001:db8::25
*.wild TXT "wild"
esc\.aped TXT "x"
alias CNAME mail
_sip._tcp SRV 0 5 5060 mail
sub NS ns.sub
sub NS ns.example.net.
sub DS 1 8 1 0123456789ABCDEF0123456789ABCDEF01234567
ns.sub A 192.0.2.53
naptr NAPTR 1 1 "u" "e2u+sip" "!^.*$!sip:a@b!" .
svc SVCB 1 svc.example.net. mandatory=alpn alpn=h3 no-default-alpn
tlsa TLSA 3 1 1 ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789
ssh SSHFP 1 1 0123456789ABCDEF0123456789ABCDEF01234567
dn DNAME elsewhere.example.net.
ptr PTR mail
gen TYPE4000 \# 2 abcd
hinfo HINFO "PC" "Linux"
`;
    const first = await importFile(src.id, file);
    expect(first.status, first.text).toBe(200);
    expect(first.body.skipped).toEqual([]);

    const srcZone = await zoneOf(src.id);
    const exp = await t.request('GET', `${ZONES}/${src.id}/export`, { token: alice });
    expect(exp.status).toBe(200);
    expect(exp.headers.get('content-type')).toMatch(/^text\/plain/);
    const lines = exp.text.trimEnd().split('\n');
    expect(lines[0]).toBe('$ORIGIN fixed.example.');
    expect(lines[1]).toMatch(
      new RegExp(
        `^fixed\\.example\\. \\d+ IN SOA \\S+ hostmaster\\.fixed\\.example\\. ${srcZone.serial} \\d+ \\d+ \\d+ \\d+$`,
      ),
    );
    expect(lines[2]).toMatch(/^fixed\.example\. \d+ IN NS /);
    const firstRecord = lines.findIndex((l) => !/ IN (SOA|NS) /.test(l) && !l.startsWith('$'));
    expect(lines.slice(firstRecord).some((l) => / IN (SOA) /.test(l))).toBe(false);
    expect(lines).toHaveLength(1 + 1 + 2 + srcZone.record_count);

    // Into a second, empty zone: the same records; then export again: the same text but the SOA serial.
    const copy = await zone('copy.example');
    const copied = await importFile(copy.id, exp.text.replaceAll('fixed.example.', 'copy.example.'));
    expect(copied.status, copied.text).toBe(200);
    expect(copied.body.skipped.map((s: { reason: string }) => s.reason)).toEqual([
      'SOA at the zone apex is managed by the platform',
      'NS at the zone apex is managed by the platform',
      'NS at the zone apex is managed by the platform',
    ]);
    const strip = (rs: Rec[], d: string) => shape(rs).map((s) => s.replaceAll(d, 'ORIGIN'));
    expect(strip(await records(copy.id), 'copy.example').sort()).toEqual(
      strip(await records(src.id), 'fixed.example').sort(),
    );

    // Same domain in another account would conflict, so round-trip the export verbatim into an
    // emptied zone of the same name: identical record lists, identical export but the serial.
    const before = await records(src.id);
    await t.request('DELETE', `${ZONES}/${src.id}`, { token: alice });
    const again = await zone('fixed.example');
    const re = await importFile(again.id, exp.text);
    expect(re.status, re.text).toBe(200);
    expect(re.body.imported).toBe(before.length);
    expect(shape(await records(again.id))).toEqual(shape(before));
    const exp2 = await t.request('GET', `${ZONES}/${again.id}/export`, { token: alice });
    const noSerial = (s: string) => s.replace(/( IN SOA \S+ \S+ )\d+/, '$1N');
    expect(noSerial(exp2.text)).toBe(noSerial(exp.text));
    // Importing the export into the zone it came from changes nothing.
    const serialBefore = (await zoneOf(again.id)).serial;
    const self = await importFile(again.id, exp2.text);
    expect(self.body.imported).toBe(0);
    expect(self.body.skipped).toHaveLength(3 + before.length);
    expect((await zoneOf(again.id)).serial).toBe(serialBefore);
  });

  it('exports a fresh zone as just $ORIGIN, SOA and NS; the SOA carries soa_email', async () => {
    const z = await zone('fresh.example');
    await t.request('PATCH', `${ZONES}/${z.id}`, {
      token: alice,
      body: { soa_email: 'first.last@fresh.example' },
    });
    const exp = await t.request('GET', `${ZONES}/${z.id}/export`, { token: alice });
    const lines = exp.text.trimEnd().split('\n');
    expect(lines[0]).toBe('$ORIGIN fresh.example.');
    expect(lines[1]).toContain(' IN SOA ');
    expect(lines[1]).toContain(' first\\.last.fresh.example. ');
    expect(lines.slice(2).every((l) => / IN NS /.test(l))).toBe(true);
  });

  it('hides another account’s zone from import and export', async () => {
    const z = await zone('mine.example');
    for (const [method, path, body] of [
      ['GET', `${ZONES}/${z.id}/export`],
      ['POST', `${ZONES}/${z.id}/import`, { zone_file: 'x A 192.0.2.1\n' }],
    ] as const) {
      const res = await t.request(method, path, { token: bob, ...(body ? { body } : {}) });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Zone not found' });
    }
    expect((await zoneOf(z.id)).record_count).toBe(0);
  });
});
