import { describe, expect, it } from 'vitest';
import { exampleStore } from '../../testing/dns-zone-fixture.ts';
import { buildQuery, decode } from '../../testing/dns-answer-compare.ts';
import { siphash24 } from '../wire/siphash.ts';
import { createMessageHandler, createOutcome, type ClientInfo } from './handle-message.ts';
import { createResponseRateLimiter, RRL_SEND } from './response-rate-limit.ts';
import { addressOctets, ServerCookies } from './server-cookies.ts';

const hex = (s: string): Buffer => Buffer.from(s.replace(/\s+/g, ''), 'hex');
const UDP: ClientInfo = { transport: 'udp', address: '198.51.100.100', port: 5353, family: 4 };

/** The options of a response's OPT RR, by code. */
function options(res: Buffer): Map<number, Buffer> {
  const opt = decode(res).additionals?.find((a) => a.type === 'OPT') as
    { options: { code: number; data: Buffer }[] } | undefined;
  return new Map((opt?.options ?? []).map((o) => [o.code, Buffer.from(o.data)]));
}

describe('SipHash-2-4 and RFC 9018 server cookies', () => {
  it('gives the reference vectors of SipHash-2-4 (key 00..0f, message 00..n-1)', () => {
    const key = Uint8Array.from({ length: 16 }, (_, i) => i);
    const out = new Uint8Array(8);
    const of = (n: number): string => {
      siphash24(
        key,
        Uint8Array.from({ length: n }, (_, i) => i),
        n,
        out,
        0,
      );
      return Buffer.from(out).toString('hex');
    };
    expect(of(0)).toBe('310e0edd47db6f72');
    expect(of(1)).toBe('fd67dc93c539f874');
    expect(of(63)).toBe('724506eb4c328a95');
  });

  it('computes the hash of RFC 9018 appendix A.1', () => {
    const input = Buffer.concat([hex('2464c4abcf10c957'), hex('01000000 5cf79f11'), hex('c6336464')]);
    const out = new Uint8Array(8);
    siphash24(hex('e5e973e5a6b2a43f48e7dc849e37bfcf'), input, input.length, out, 0);
    expect(Buffer.from(out).toString('hex')).toBe('1f8130c3eee29480');
  });

  it('reads client addresses as the octets the hash covers', () => {
    expect([...addressOctets('198.51.100.100')]).toEqual([198, 51, 100, 100]);
    expect([...addressOctets('::ffff:192.0.2.1')]).toEqual([192, 0, 2, 1]);
    expect(Buffer.from(addressOctets('2001:db8::1')).toString('hex')).toBe(
      '20010db8000000000000000000000001',
    );
    expect(Buffer.from(addressOctets('2001:db8:220:1:59de:d0f4:8769:82b8')).toString('hex')).toBe(
      '20010db80220000159ded0f4876982b8',
    );
  });

  it('accepts its own cookies for an hour, across the daily roll, from any worker with the master secret', () => {
    let now = 1_800_000_000;
    const master = hex('00112233445566778899aabbccddeeff');
    const a = new ServerCookies(master, () => now);
    const b = new ServerCookies(master, () => now);
    const msg = new Uint8Array(24);
    msg.set(hex('2464c4abcf10c957'), 0);
    const ip = addressOctets('198.51.100.100');
    a.write(msg, 0, ip, msg, 8);
    expect(b.valid(msg, 0, 8, 16, ip)).toBe(true);
    expect(b.valid(msg, 0, 8, 16, addressOctets('198.51.100.101'))).toBe(false);
    now += 3_000;
    expect(b.valid(msg, 0, 8, 16, ip)).toBe(true); // 50 minutes later, even across midnight
    now += 700;
    expect(b.valid(msg, 0, 8, 16, ip)).toBe(false); // over an hour old
    const tampered = Uint8Array.from(msg);
    tampered[23] = tampered[23]! ^ 1;
    now -= 700;
    expect(b.valid(tampered, 0, 8, 16, ip)).toBe(false);
    expect(new ServerCookies(hex('ff'.repeat(16)), () => now).valid(msg, 0, 8, 16, ip)).toBe(false);
  });
});

describe('NSID and DNS cookies in answers', () => {
  const store = exampleStore();
  const out = createOutcome();
  const cookies = new ServerCookies(hex('00112233445566778899aabbccddeeff'));
  const handle = createMessageHandler(store, { nsid: new TextEncoder().encode('ns-fra-1'), cookies });
  const query = (opts: { code: number; data: Buffer }[]) =>
    buildQuery({ name: 'www.example.com', type: 'A', edns: { options: opts } });

  it('answers NSID only to queries that ask (RFC 5001), and not at all when unset', () => {
    expect(
      options(handle(query([{ code: 3, data: Buffer.alloc(0) }]), UDP, out)!)
        .get(3)
        ?.toString(),
    ).toBe('ns-fra-1');
    expect(options(handle(query([]), UDP, out)!).has(3)).toBe(false);
    const silent = createMessageHandler(store, { nsid: null });
    expect(options(silent(query([{ code: 3, data: Buffer.alloc(0) }]), UDP, out)!).has(3)).toBe(false);
  });

  it('answers a client cookie with a server cookie, and marks a returned good one exempt from RRL', () => {
    const client = hex('2464c4abcf10c957');
    const first = options(handle(query([{ code: 10, data: client }]), UDP, out)!).get(10)!;
    expect(first).toHaveLength(24);
    expect(first.subarray(0, 8)).toEqual(client);
    expect(first[8]).toBe(1); // version 1, RFC 9018 §4.2
    expect(out.cookieValid).toBe(false);

    const again = options(handle(query([{ code: 10, data: first }]), UDP, out)!).get(10)!;
    expect(out.cookieValid).toBe(true);
    expect(again.subarray(0, 8)).toEqual(client);
    const rrl = createResponseRateLimiter({ rate: 1, exempt: [] });
    const res = Buffer.alloc(64);
    for (let i = 0; i < 20; i++) expect(rrl.decide(UDP, out, res)).toBe(RRL_SEND);

    // From another address, or altered, the same cookie is not ours: answered, not exempt.
    handle(query([{ code: 10, data: first }]), { ...UDP, address: '203.0.113.9' }, out);
    expect(out.cookieValid).toBe(false);
  });

  it('answers FORMERR to a malformed COOKIE option (RFC 7873 §5.2.2) and ignores cookies when off', () => {
    for (const length of [0, 7, 9, 15, 41]) {
      const res = handle(query([{ code: 10, data: Buffer.alloc(length, 1) }]), UDP, out)!;
      expect(decode(res).rcode, `length ${length}`).toBe('FORMERR');
    }
    const off = createMessageHandler(store, {});
    const res = off(query([{ code: 10, data: Buffer.alloc(7, 1) }]), UDP, out)!;
    expect(decode(res).rcode).toBe('NOERROR');
    expect(options(res).has(10)).toBe(false);
  });
});
