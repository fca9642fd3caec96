import { describe, expect, it } from 'vitest';
import type { ClientInfo, MessageOutcome } from './handle-message.ts';
import {
  createResponseRateLimiter,
  RRL_DROP,
  RRL_SEND,
  RRL_SLIP,
  truncateForSlip,
} from './response-rate-limit.ts';

function client(address: string): ClientInfo {
  return { transport: 'udp', address, port: 5353, family: address.includes(':') ? 6 : 4 };
}
function outcome(kind: MessageOutcome['kind'], zoneApex = 'example.com'): MessageOutcome {
  return {
    rcode: 0,
    qtype: 1,
    zoneId: 1,
    zoneApex,
    kind,
    truncated: false,
    cookieValid: false,
    cacheable: false,
    signed: false,
  };
}
/** Header (1 question, 1 answer) + question `<label>.example.com A IN` + fake answer bytes. */
function response(label: string): Buffer {
  const name = Buffer.from([
    label.length,
    ...Buffer.from(label),
    7,
    ...Buffer.from('example'),
    3,
    ...Buffer.from('com'),
    0,
  ]);
  const header = Buffer.from([0x12, 0x34, 0x84, 0x00, 0, 1, 0, 1, 0, 0, 0, 0]);
  return Buffer.concat([
    header,
    name,
    Buffer.from([0, 1, 0, 1]),
    Buffer.from([0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 1, 2, 3, 4]),
  ]);
}

describe('response rate limiting', () => {
  it('sends `rate` responses per second, then slips every 2nd and drops the rest', () => {
    let t = 1_000_000;
    const rrl = createResponseRateLimiter({ rate: 3, exempt: [], now: () => t });
    const c = client('198.51.100.7');
    const decisions = Array.from({ length: 9 }, () => rrl.decide(c, outcome('positive'), response('www')));
    expect(decisions).toEqual([
      RRL_SEND,
      RRL_SEND,
      RRL_SEND,
      RRL_DROP,
      RRL_SLIP,
      RRL_DROP,
      RRL_SLIP,
      RRL_DROP,
      RRL_SLIP,
    ]);
    t += 1000; // a second later the bucket is full again
    expect(rrl.decide(c, outcome('positive'), response('www'))).toBe(RRL_SEND);
    t += 333; // refill is proportional: one token after a third of a second
    for (let i = 0; i < 2; i++) rrl.decide(c, outcome('positive'), response('www'));
    expect(rrl.decide(c, outcome('positive'), response('www'))).not.toBe(RRL_SEND);
  });

  it('keys positive answers by qname, negative ones by zone, and clients by /24 and /56', () => {
    const t = 5_000;
    const rrl = createResponseRateLimiter({ rate: 1, slip: 0, exempt: [], now: () => t });
    expect(rrl.decide(client('198.51.100.7'), outcome('positive'), response('a'))).toBe(RRL_SEND);
    expect(rrl.decide(client('198.51.100.7'), outcome('positive'), response('b'))).toBe(RRL_SEND);
    expect(rrl.decide(client('198.51.100.200'), outcome('positive'), response('A'))).toBe(RRL_DROP); // same /24, case-insensitive
    expect(rrl.decide(client('198.51.101.7'), outcome('positive'), response('a'))).toBe(RRL_SEND);
    expect(rrl.decide(client('198.51.100.7'), outcome('nxdomain'), response('x1'))).toBe(RRL_SEND);
    expect(rrl.decide(client('198.51.100.7'), outcome('nxdomain'), response('x2'))).toBe(RRL_DROP); // same zone
    expect(rrl.decide(client('198.51.100.7'), outcome('nxdomain', 'other.org'), response('x3'))).toBe(
      RRL_SEND,
    );
    expect(rrl.decide(client('198.51.100.7'), outcome('nodata'), response('x4'))).toBe(RRL_SEND); // other class
    expect(rrl.decide(client('2001:db8:1:2300::1'), outcome('error'), response('e'))).toBe(RRL_SEND);
    expect(rrl.decide(client('2001:db8:1:23ff::9'), outcome('error'), response('e'))).toBe(RRL_DROP); // same /56
    expect(rrl.decide(client('2001:db8:1:2400::1'), outcome('error'), response('e'))).toBe(RRL_SEND);
  });

  it('never limits exempt clients (loopback by default) and is off at rate 0', () => {
    const rrl = createResponseRateLimiter({ rate: 1, now: () => 0 });
    for (let i = 0; i < 10; i++) {
      expect(rrl.decide(client('127.0.0.1'), outcome('positive'), response('w'))).toBe(RRL_SEND);
      expect(rrl.decide(client('::1'), outcome('positive'), response('w'))).toBe(RRL_SEND);
    }
    const off = createResponseRateLimiter({ rate: 0, exempt: [] });
    expect(off.enabled).toBe(false);
    for (let i = 0; i < 10; i++)
      expect(off.decide(client('203.0.113.1'), outcome('positive'), response('w'))).toBe(RRL_SEND);
  });

  it('slip 1 slips every limited response; memory stays bounded with many flows', () => {
    const rrl = createResponseRateLimiter({ rate: 1, slip: 1, exempt: [], tableSize: 16, now: () => 0 });
    const c = client('203.0.113.9');
    rrl.decide(c, outcome('positive'), response('w'));
    expect(rrl.decide(c, outcome('positive'), response('w'))).toBe(RRL_SLIP);
    for (let i = 0; i < 10_000; i++)
      rrl.decide(client(`10.${i >> 8}.${i & 255}.1`), outcome('positive'), response('w'));
  });

  it('rejects invalid configuration', () => {
    expect(() => createResponseRateLimiter({ rate: -1 })).toThrow();
    expect(() => createResponseRateLimiter({ rate: 1, slip: 1.5 })).toThrow();
  });
});

describe('truncateForSlip', () => {
  it('keeps header and question, sets TC, zeroes the other counts', () => {
    const r = response('www');
    const t = truncateForSlip(Buffer.from(r));
    expect(t.length).toBe(12 + 17 + 4);
    expect(t[2]! & 0x02).toBe(0x02);
    expect(Array.from(t.subarray(4, 12))).toEqual([0, 1, 0, 0, 0, 0, 0, 0]);
    expect(t.subarray(12).equals(r.subarray(12, 33))).toBe(true);
  });
  it('copes with short and question-less messages', () => {
    expect(truncateForSlip(Buffer.from([1, 2, 3])).length).toBe(3);
    const h = Buffer.from([0, 1, 0x84, 0, 0, 0, 0, 2, 0, 0, 0, 0, 9, 9]);
    expect(truncateForSlip(h).length).toBe(12);
  });
});
