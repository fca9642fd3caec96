import dnsPacket from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { exampleStore } from '../../testing/dns-zone-fixture.ts';
import { createMessageHandlerWithContext, createOutcome } from './handle-message.ts';
import type { ClientInfo } from './handle-message.ts';
import { buildQuery, decode, expectResponse } from '../../testing/dns-answer-compare.ts';

const UDP: ClientInfo = { transport: 'udp', address: '192.0.2.1', port: 5353, family: 4 };
const TCP: ClientInfo = { ...UDP, transport: 'tcp' };
const { handle, context } = createMessageHandlerWithContext(exampleStore());
const out = createOutcome();
const hex = (s: string): Buffer => Buffer.from(s.replace(/\s+/g, ''), 'hex');
const ecs = (data: string) => ({ code: 8, data: hex(data) });
const optOf = (buf: Buffer) =>
  decode(buf).additionals?.find((a) => a.type === 'OPT') as
    | {
        udpPayloadSize: number;
        extendedRcode: number;
        flags: number;
        options: { code: number; data: Buffer }[];
      }
    | undefined;

describe('message handling (behaviour recorded from Knot DNS 3.2.6)', () => {
  it('echoes the question with the client letter case (0x20) and points owners at it', () => {
    const res = handle(buildQuery({ name: 'wWw.ExAmple.com', type: 'A' }), UDP, out)!;
    expect(res.subarray(12, 29).toString('latin1')).toContain('wWw');
    expect(decode(res).questions![0]!.name).toBe('wWw.ExAmple.com');
    expect(res.subarray(33, 35).toString('hex')).toBe('c00c');
  });

  it('compresses owners and NS/MX/SOA rdata names; decoded answer is unchanged', () => {
    const res = handle(buildQuery({ name: 'example.com', type: 'NS' }), UDP, out)!;
    const p = expectResponse(res, {
      rcode: 'NOERROR',
      answer: ['example.com 3600 NS ns1.example.com', 'example.com 3600 NS ns2.example.net'],
      additional: ['ns1.example.com 3600 A 192.0.2.53', 'ns1.example.com 3600 AAAA 2001:db8::53'],
    });
    const uncompressed = dnsPacket.encode({ ...p, type: 'response' } as dnsPacket.Packet);
    expect(res.length).toBeLessThan(uncompressed.length);
  });

  it('does not compress SRV targets (RFC 2782, RFC 3597 §4)', () => {
    const res = handle(buildQuery({ name: 'srv.example.com', type: 'SRV' }), UDP, out)!;
    // the first SRV target www.example.com is written in full (www label then example label)
    expect(res.indexOf(Buffer.from('\x03www\x07example\x03com\x00', 'latin1'))).toBeGreaterThan(0);
  });

  it('truncates at 512 without EDNS: TC, whole RRsets dropped', () => {
    const res = handle(buildQuery({ name: 'big.example.com', type: 'TXT' }), UDP, out)!;
    expectResponse(res, { rcode: 'NOERROR', aa: true, tc: true });
    expect(res.length).toBeLessThanOrEqual(512);
    expect(out.truncated).toBe(true);
  });

  it('truncates at the EDNS size (values below 512 count as 512), keeps OPT', () => {
    for (const size of [100, 512, 600]) {
      const res = handle(buildQuery({ name: 'big.example.com', type: 'TXT', edns: { size } }), UDP, out)!;
      expectResponse(res, { rcode: 'NOERROR', tc: true });
      expect(res.length).toBeLessThanOrEqual(Math.max(512, size));
      expect(optOf(res)?.udpPayloadSize).toBe(1232);
    }
    const fits = handle(
      buildQuery({ name: 'big.example.com', type: 'TXT', edns: { size: 1232 } }),
      UDP,
      out,
    )!;
    expect(decode(fits).answers).toHaveLength(3);
  });

  it('TCP allows 65535', () => {
    const res = handle(buildQuery({ name: 'big.example.com', type: 'TXT' }), TCP, out)!;
    expect(decode(res).answers).toHaveLength(3);
  });

  it('drops the additional section silently when only it does not fit', () => {
    const res = handle(buildQuery({ name: 'deleg.example.com', type: 'A', edns: { size: 512 } }), UDP, out)!;
    expect(res.length).toBeLessThanOrEqual(512);
    expect((decode(res).flags ?? 0) & 0x200).toBe(0);
  });

  it('EDNS: OPT in the response with our size, DO echoed', () => {
    const res = handle(buildQuery({ name: 'www.example.com', type: 'A', edns: { do: true } }), UDP, out)!;
    const opt = optOf(res)!;
    expect(opt.udpPayloadSize).toBe(1232);
    expect(opt.flags & 0x8000).toBe(0x8000);
  });

  it('EDNS version 1 → BADVERS (extended rcode 1), question echoed, no answer', () => {
    const res = handle(
      buildQuery({ name: 'www.example.com', type: 'A', edns: { version: 1, do: true } }),
      UDP,
      out,
    )!;
    const p = decode(res);
    expect(res[3]! & 0x0f).toBe(0);
    expect(optOf(res)!.extendedRcode).toBe(1);
    expect(p.answers).toHaveLength(0);
    expect(out.rcode).toBe(16);
  });

  it('ECS: parsed for steering, echoed with scope 0 and masked address', () => {
    const res = handle(
      buildQuery({ name: 'www.example.com', type: 'A', edns: { options: [ecs('00011710c00003')] } }),
      UDP,
      out,
    )!;
    expect(context.query.ecs).toMatchObject({
      present: true,
      family: 1,
      sourcePrefix: 23,
      scopePrefix: 16,
      addressLength: 3,
    });
    expect(optOf(res)!.options[0]).toMatchObject({ code: 8, family: 1, ip: '192.0.2.0' });
    expect(res.subarray(-11).toString('hex')).toBe('0008000700011700c00002');
  });

  it.each([
    ['source > 32', '00012100c0000201'],
    ['family 3', '00031800c00002'],
    ['family 0', '00000000'],
    ['address shorter than the prefix', '00011800c000'],
    ['scope > 32', '00011821c00002'],
    ['truncated option', '0001'],
  ])('bad ECS (%s) → FORMERR with OPT', (_l, data) => {
    const res = handle(
      buildQuery({ name: 'www.example.com', type: 'A', edns: { options: [ecs(data)] } }),
      UDP,
      out,
    )!;
    expectResponse(res, { rcode: 'FORMERR', aa: false });
    expect(optOf(res)?.options).toEqual([]);
  });

  it('cookies and unknown options are ignored', () => {
    const res = handle(
      buildQuery({
        name: 'www.example.com',
        type: 'A',
        edns: {
          options: [
            { code: 10, data: hex('0102030405060708') },
            { code: 65001, data: hex('ff') },
          ],
        },
      }),
      UDP,
      out,
    )!;
    expectResponse(res, { rcode: 'NOERROR', answer: ['www.example.com 3600 A 192.0.2.80'] });
    expect(optOf(res)!.options).toEqual([]);
  });

  it('REFUSED outside served zones carries ECS echo and EDE 20', () => {
    const res = handle(
      buildQuery({
        name: 'foo.bar',
        type: 'A',
        flags: 0x100,
        edns: { do: true, options: [ecs('00011800c00002')] },
      }),
      UDP,
      out,
    )!;
    expect(res.toString('hex')).toBe(
      '123481050001000000000001' +
        '03666f6f03626172000001' +
        '0001' +
        '00002904d00000800000110008000700011800c00002000f00020014',
    );
  });

  const Q = '03777777076578616d706c6503636f6d0000010001';
  it.each([
    ['shorter than a header', '1234000000010000000000'],
    ['QR set', '123480000001000000000000' + Q],
    ['QDCOUNT 2', '123400000002000000000000' + Q + Q],
    ['truncated question', '123400000001000000000000' + Q.slice(0, -4)],
    ['pointer in question', '123400000001000000000000c00400010001'],
    ['looping pointer', '12340000000100000000000003777777c00c00010001'],
    ['label of 64', '123400000001000000000000' + '40' + '61'.repeat(64) + '0000010001'],
    ['name over 255', '123400000001000000000000' + ('3f' + '61'.repeat(63)).repeat(4) + '0000010001'],
  ])('drops: %s', (_l, q) => {
    expect(handle(hex(q), UDP, out)).toBeNull();
    expect(out.kind).toBe('dropped');
  });

  const opt = '0000291000000000000000';
  it.each([
    ['trailing garbage', '123400000001000000000000' + Q + 'deadbeef', false],
    ['ANCOUNT beyond the data', '123400000001000100000000' + Q + 'ffff', false],
    ['two OPT', '123400000001000000000002' + Q + opt + opt, false],
    ['OPT in answer section', '123400000001000100000000' + Q + opt, false],
    ['OPT option overruns', '123400000001000000000001' + Q + '00002910000000000000050008', false],
    ['QDCOUNT 0 with EDNS', '123400000000000000000001' + opt, true],
  ])('FORMERR: %s', (_l, q, withOpt) => {
    const res = handle(hex(q), UDP, out)!;
    expect(res[3]! & 0x0f).toBe(1);
    expect(optOf(res) !== undefined).toBe(withOpt);
    expect(out).toMatchObject({ rcode: 1, kind: 'error' });
  });

  it('accepts an OPT with a non-root owner (Knot does)', () => {
    const res = handle(hex('123400000001000000000001' + Q + '017800' + '00291000000000000000'), UDP, out)!;
    expectResponse(res, { rcode: 'NOERROR', answer: ['www.example.com 3600 A 192.0.2.80'] });
  });

  it('never throws on random input', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 256;
    const base = buildQuery({
      name: 'www.example.com',
      type: 'A',
      edns: { options: [ecs('00011800c00002')] },
    });
    for (let i = 0; i < 20000; i++) {
      const b = Buffer.from(base);
      for (let k = 0; k < 1 + (i % 4); k++) b[rnd() % b.length] = rnd();
      const len = i % 7 === 0 ? rnd() % b.length : b.length;
      const res = handle(b.subarray(0, len), i % 2 ? UDP : TCP, out);
      if (res) expect(res.length).toBeLessThanOrEqual(i % 2 ? 1232 : 65535);
    }
  });
});
