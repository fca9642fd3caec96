import { describe, expect, it } from 'vitest';
import { ByteArena } from './byte-arena.ts';
import {
  encodeRRset,
  rdataNames,
  rdataNamesValid,
  SHAPE_FLAT,
  SHAPE_HINT,
  SHAPE_MX,
  SHAPE_NAME,
  SHAPE_SOA,
} from './rrset-encoding.ts';
import { createSeededRandom } from '../../testing/seeded-random.ts';
import { wireNameFromText } from './wire-name.ts';
import { RR_TYPE } from './rr-type.ts';

const name = (t: string) => wireNameFromText(t).wire;
const cat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

describe('encodeRRset', () => {
  const soa = cat(name('ns.example.com'), name('h.example.com'), new Uint8Array(20).fill(7));
  const cases: Array<[string, number, number, Uint8Array[]]> = [
    ['A', RR_TYPE.A, SHAPE_FLAT, [Uint8Array.of(192, 0, 2, 1), Uint8Array.of(192, 0, 2, 2)]],
    ['CNAME', RR_TYPE.CNAME, SHAPE_NAME, [name('Target.example.com')]],
    [
      'MX',
      RR_TYPE.MX,
      SHAPE_MX,
      [cat(Uint8Array.of(0, 10), name('mx.example.com')), cat(Uint8Array.of(0, 20), name('.'))],
    ],
    ['SOA', RR_TYPE.SOA, SHAPE_SOA, [soa]],
    ['SRV', RR_TYPE.SRV, SHAPE_HINT, [cat(Uint8Array.of(0, 1, 0, 2, 0, 3), name('sip.example.com'))]],
  ];
  for (const [label, type, shape, rdatas] of cases) {
    it(`gives back the RDATA it encoded (${label}), in an arena or alone`, () => {
      const arena = new ByteArena();
      arena.reserve(3);
      const inArena = encodeRRset(
        type,
        300,
        rdatas,
        rdatas.flatMap((r) => rdataNames(type, r)),
        arena,
      );
      expect(inArena.start).toBe(3);
      const alone = encodeRRset(type, 300, rdatas);
      for (const rs of [inArena, alone]) {
        expect(rs.shape).toBe(shape);
        expect(rs.count).toBe(rdatas.length);
        expect(rs.rdatas).toEqual(rdatas);
        expect([...rs.data.subarray(rs.start, rs.start + 8)]).toEqual([0, type, 0, 1, 0, 0, 1, 44]);
      }
    });
  }

  it('keeps the CNAME target and rejects malformed names', () => {
    expect(encodeRRset(RR_TYPE.CNAME, 1, [name('a.example')]).target!.keys[0]).toBe('\x01a\x07example');
    expect(encodeRRset(RR_TYPE.A, 1, [Uint8Array.of(1, 2, 3, 4)]).target).toBeNull();
    expect(() => rdataNames(RR_TYPE.CNAME, cat(name('a.example'), Uint8Array.of(1)))).toThrow();
    expect(() => rdataNames(RR_TYPE.SOA, name('a.example'))).toThrow();
    expect(() => rdataNames(RR_TYPE.MX, Uint8Array.of(0, 1))).toThrow();
  });
});

describe('rdataNamesValid', () => {
  it('accepts exactly the RDATA rdataNames reads, at any offset of a larger buffer', () => {
    const rnd = createSeededRandom(9);
    // Names of every type with names (NS, CNAME, SOA, MX, MINFO, SRV, DNAME) and a flat one (A).
    const types = [2, 5, 6, 15, 14, 33, 39, 1];
    const label = (): number[] => {
      const len = rnd.next() < 0.05 ? 64 : rnd.int(8);
      return [len, ...Array.from({ length: len }, () => 97 + rnd.int(26))];
    };
    const name = (): number[] => {
      if (rnd.next() < 0.02) return [...Array.from({ length: 260 }, (_, i) => (i % 2 === 0 ? 1 : 97)), 0];
      const labels = Array.from({ length: rnd.int(4) }, label).flat();
      return rnd.next() < 0.1 ? labels : [...labels, 0];
    };
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      const type = rnd.pick(types);
      const fixed = Array.from({ length: rnd.pick([0, 1, 2, 6, 20]) }, () => rnd.int(256));
      const parts = rnd.next() < 0.5 ? [fixed, name()] : [name(), name(), fixed];
      if (rnd.next() < 0.1) parts.push([rnd.int(256)]);
      const rdata = Uint8Array.from(parts.flat());
      const padded = Uint8Array.from([7, 7, 7, ...rdata, 63, 1, 2]);
      let expected = true;
      try {
        rdataNames(type, rdata);
      } catch {
        expected = false;
      }
      if (expected) accepted++;
      expect(
        rdataNamesValid(type, padded, 3, 3 + rdata.length),
        `${type} ${Buffer.from(rdata).toString('hex')}`,
      ).toBe(expected);
    }
    // Both kinds were met often.
    expect(accepted).toBeGreaterThan(2_000);
    expect(accepted).toBeLessThan(18_000);
  });
});
