import { describe, expect, it } from 'vitest';
import { parseProxyV2, proxyV2Header, PROXY_V2_SIGNATURE } from './proxy-v2.ts';

describe('edge codec: PROXY protocol v2 headers', () => {
  it('writes TCP over IPv4 as the specification lays it out', () => {
    const h = proxyV2Header({
      sourceAddress: '203.0.113.7',
      sourcePort: 53211,
      destinationAddress: '::ffff:198.51.100.2',
      destinationPort: 25565,
    });
    expect(h.toString('hex')).toBe(
      [PROXY_V2_SIGNATURE.toString('hex'), '21', '11', '000c', 'cb007107', 'c6336402', 'cfdb', '63dd'].join(
        '',
      ),
    );
  });

  it('reads what it writes, IPv4 and IPv6, with the stream after it', () => {
    for (const [src, dst] of [
      ['203.0.113.7', '198.51.100.2'],
      ['2001:db8::7', '2001:db8:0:1::2'],
      ['::1', '::'],
    ] as const) {
      const head = proxyV2Header({
        sourceAddress: src,
        sourcePort: 1,
        destinationAddress: dst,
        destinationPort: 2,
      });
      const parsed = parseProxyV2(Buffer.concat([head, Buffer.from('rest')]));
      expect(parsed).not.toBe('more');
      expect(parsed).not.toBe('invalid');
      const { addresses, length } = parsed as Exclude<typeof parsed, string>;
      expect(length).toBe(head.length);
      const norm = (a: string) => (a.includes(':') ? Buffer.from(a) : a);
      expect(addresses?.sourcePort).toBe(1);
      expect(addresses?.destinationPort).toBe(2);
      if (!src.includes(':')) expect(addresses?.sourceAddress).toBe(src);
      else expect(norm(addresses!.sourceAddress)).toBeTruthy();
    }
    const v6 = parseProxyV2(
      proxyV2Header({
        sourceAddress: '2001:db8::7',
        sourcePort: 1,
        destinationAddress: '::1',
        destinationPort: 2,
      }),
    ) as { addresses: { sourceAddress: string; destinationAddress: string } };
    expect(v6.addresses.sourceAddress).toBe('2001:db8:0:0:0:0:0:7');
    expect(v6.addresses.destinationAddress).toBe('0:0:0:0:0:0:0:1');
  });

  it('waits for a header still arriving, refuses what is not one', () => {
    const head = proxyV2Header({
      sourceAddress: '10.0.0.1',
      sourcePort: 1,
      destinationAddress: '10.0.0.2',
      destinationPort: 2,
    });
    for (let cut = 1; cut < head.length; cut++) expect(parseProxyV2(head.subarray(0, cut))).toBe('more');
    expect(parseProxyV2(Buffer.from([0x10, 0x00]))).toBe('invalid');
    const badCommand = Buffer.from(head);
    badCommand[12] = 0x22;
    expect(parseProxyV2(badCommand)).toBe('invalid');
  });
});
