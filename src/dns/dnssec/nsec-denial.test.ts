import { describe, expect, it } from 'vitest';
import { keyOfText } from '../wire/wire-name.ts';
import { compareCanonical, labelsOfKey } from './canonical-name.ts';
import { NameIndex } from './name-index.ts';
import {
  coveringNsec,
  epsilonPredecessor,
  epsilonSuccessor,
  matchingNsec,
  nextCloser,
  nsecRdata,
  nxdomainProof,
  type DenialZone,
} from './nsec-denial.ts';

const k = keyOfText;
const names = [
  'example',
  'a.example',
  'b.example',
  'c.b.example',
  '*.w.example',
  'm\\255\\255.example',
  'p\\000.example',
  'y.example',
];
const zone: DenialZone = {
  apexKey: k('example'),
  names: new NameIndex([...names.map(k), k('w.example')]),
  typesAt: (key) => (key === k('example') ? [2, 6, 48] : key === k('w.example') ? [] : [1]),
};
const text = (key: string): string =>
  labelsOfKey(key)
    .map((l) => l.replace(/[^ -~]|\\/g, (c) => `\\${String(c.charCodeAt(0)).padStart(3, '0')}`))
    .join('.');
const lt = (a: string, b: string): boolean => compareCanonical(a, b) < 0;

describe('minimally covering NSEC (RFC 4470)', () => {
  it('derives epsilon neighbours that bracket a name and all of its descendants', () => {
    expect(text(epsilonPredecessor(k('foo.example'))!)).toBe('fon\\255.example');
    expect(text(epsilonSuccessor(k('foo.example'))!)).toBe('foo\\000.example');
    // Decrementing into upper case would sort after the name: "[" - 1 → "@".
    expect(text(epsilonPredecessor(k('a[.example'))!)).toBe('a@\\255.example');
    expect(text(epsilonPredecessor(k('ab\\000.example'))!)).toBe('ab.example');
    expect(epsilonPredecessor(k('\\000.example'))).toBeNull();
    const long = `${'m'.repeat(63)}.example`;
    expect(text(epsilonSuccessor(k(long))!)).toBe(`${'m'.repeat(62)}n.example`);
    for (const n of ['foo.example', 'a[.example', long, 'q.r.example']) {
      const key = k(n);
      expect(lt(epsilonPredecessor(key)!, key)).toBe(true);
      expect(lt(key, epsilonSuccessor(key)!)).toBe(true);
      expect(lt(k(`deep.below.${n}`), epsilonSuccessor(key)!)).toBe(true);
    }
  });

  it('covers a missing name without revealing real names', () => {
    const n = coveringNsec(zone, k('abc.example'));
    expect(text(n.ownerKey)).toBe('abb\\255.example');
    expect(text(n.nextKey)).toBe('abc\\000.example');
    expect(n.types).toEqual([46, 47]);
  });

  it('falls back to a real neighbour (with its real types) when one lies inside the epsilon range', () => {
    // m\255\255.example lies between the epsilon predecessor of n.example (m\255) and n.example.
    const n = coveringNsec(zone, k('n.example'));
    expect(text(n.ownerKey)).toBe('m\\255\\255.example');
    expect(n.types).toEqual([1, 46, 47]);
    expect(text(n.nextKey)).toBe('n\\000.example');
    // p\000.example is the epsilon successor of p.example itself: it becomes the next name.
    const p = coveringNsec(zone, k('p.example'));
    expect(text(p.nextKey)).toBe('p\\000.example');
    expect(text(p.ownerKey)).toBe('o\\255.example');
  });

  it('proves NXDOMAIN with the next closer name and the wildcard at the closest encloser', () => {
    const proof = nxdomainProof(zone, k('q.r.b.example'), k('b.example'));
    expect(nextCloser(k('q.r.b.example'), k('b.example'))).toBe(k('r.b.example'));
    expect(proof.map((r) => [text(r.ownerKey), text(r.nextKey)])).toEqual([
      ['q\\255.b.example', 'r\\000.b.example'],
      [')\\255.b.example', '*\\000.b.example'],
    ]);
    for (const r of proof) expect(lt(r.ownerKey, r.nextKey)).toBe(true);
  });

  it('matches an existing name with "\\000.<name>" as next name and the real bitmap', () => {
    const apex = matchingNsec(zone, k('example'));
    expect(text(apex.nextKey)).toBe('\\000.example');
    expect(apex.types).toEqual([2, 6, 46, 47, 48]);
    const ent = matchingNsec(zone, k('w.example'));
    expect(ent.types).toEqual([46, 47]);
    // RDATA: next name then the bitmap (window 0, 7 octets: NS SOA ... DNSKEY).
    const rd = nsecRdata(apex);
    expect(Buffer.from(rd).toString('hex')).toBe(`0100076578616d706c6500${'0007'}${'22000000000380'}`);
  });
});
