import { hash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSeededRandom } from '../../testing/seeded-random.ts';
import { sha1Into } from './nsec3-hash.ts';
import { keyOfText } from '../wire/wire-name.ts';
import { RR_TYPE } from '../wire/rr-type.ts';
import {
  base32hex,
  hashOrder,
  Nsec3Chain,
  nsec3Hash,
  nsec3Types,
  type Nsec3Record,
  type Nsec3Zone,
} from './nsec3-chain.ts';

const k = keyOfText;

function zoneOf(types: Map<string, number[]>): Nsec3Zone {
  return { apexKey: k('example'), typesAt: (key) => types.get(key) ?? [] };
}

/** Next hashed owner of a record (RDATA: alg, flags, iterations(2), salt length 0, hash length, hash). */
function nextOf(r: Nsec3Record): string {
  const rdata = r.rrset.rdatas[0]!;
  return base32hex(rdata.subarray(6, 26));
}

function checkRing(chain: Nsec3Chain): void {
  const list = chain.list();
  for (let i = 0; i < list.length; i++) {
    const next = list[(i + 1) % list.length]!;
    expect(nextOf(list[i]!)).toBe(base32hex(next.hash));
    if (i > 0) expect(Buffer.compare(list[i - 1]!.hash, list[i]!.hash)).toBeLessThan(0);
  }
}

describe('NSEC3 chain (RFC 5155, RFC 9276 parameters)', () => {
  it('hashes a name with SHA-1, no salt, no extra iterations', () => {
    // Independent reference: Python hashlib.sha1(b"\x07example\x00") in base32hex.
    expect(base32hex(nsec3Hash(k('example')))).toBe('3msev9usmd4br9s97v51r2tdvmr9iqo1');
    expect(base32hex(nsec3Hash(k('A.example')))).toBe('6cd522290vma0nr8lqu1ivtcofj94rga');
  });

  it('computes SHA-1 as node:crypto does, for every input length a name can have', () => {
    const rnd = createSeededRandom(5);
    const out = new Uint8Array(20);
    for (let len = 0; len <= 255; len++) {
      const input = Uint8Array.from({ length: len + 3 }, () => rnd.int(256));
      sha1Into(input, 3, len, out);
      expect(Buffer.from(out).toString('hex'), `length ${len}`).toBe(hash('sha1', input.subarray(3)));
    }
  });

  it('orders hashes whose first 32 bits are equal by the rest, as a sort by whole hash', () => {
    const rnd = createSeededRandom(5);
    const n = 2000;
    const hashes = new Uint8Array(n * 20);
    for (let i = 0; i < hashes.length; i++) hashes[i] = rnd.int(256);
    // Runs of equal heads (a birthday collision at a million names), some equal whole hashes too.
    for (let i = 0; i < n; i += 3) hashes.copyWithin(i * 20, 0, 4 + (i % 4 === 0 ? 16 : rnd.int(16)));
    const whole = (i: number): string => Buffer.from(hashes.subarray(i * 20, i * 20 + 20)).toString('hex');
    const order = hashOrder(hashes, n);
    expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
    const sorted = order.map(whole);
    expect(sorted).toEqual([...sorted].sort());
    // The case is there: two thirds of the heads differ, a third are one head.
    expect(new Set(order.map((i) => whole(i).slice(0, 8))).size).toBeLessThan(n - 600);
  });

  it('shows RRSIG only for names with signed data', () => {
    expect(nsec3Types([RR_TYPE.A])).toEqual([RR_TYPE.A, RR_TYPE.RRSIG]);
    expect(nsec3Types([])).toEqual([]);
    expect(nsec3Types([RR_TYPE.NS])).toEqual([RR_TYPE.NS]);
    expect(nsec3Types([RR_TYPE.NS, RR_TYPE.DS])).toEqual([RR_TYPE.NS, RR_TYPE.DS, RR_TYPE.RRSIG]);
  });

  it('links every name in hash order, matches existing names and covers missing ones', () => {
    const types = new Map<string, number[]>([
      [k('example'), [RR_TYPE.NS, RR_TYPE.SOA, RR_TYPE.NSEC3PARAM]],
      [k('a.example'), [RR_TYPE.A]],
      [k('b.example'), [RR_TYPE.A]],
    ]);
    const names = [k('example'), k('a.example'), k('b.example'), k('c.example')];
    const chain = new Nsec3Chain(zoneOf(types), 300, names);
    expect(chain.size).toBe(4);
    checkRing(chain);
    const a = chain.matching(k('a.example'))!;
    expect(a.ownerKey).toBe(k(`${base32hex(nsec3Hash(k('a.example')))}.example`));
    for (let i = 0; i < 50; i++) {
      const h = nsec3Hash(k(`missing${i}.example`));
      const cover = chain.covering(k(`missing${i}.example`));
      const list = chain.list();
      const at = list.indexOf(cover);
      const next = list[(at + 1) % list.length]!.hash;
      const after = Buffer.compare(h, cover.hash) > 0;
      const beforeNext = Buffer.compare(h, next) < 0;
      // Covers: owner < h < next, or the last record wrapping around.
      if (at === list.length - 1) expect(after || beforeNext).toBe(true);
      else expect(after && beforeNext).toBe(true);
    }
  });

  it('follows a change by remaking only the touched names and their predecessors', () => {
    const types = new Map<string, number[]>([[k('example'), [RR_TYPE.SOA]]]);
    const names = Array.from({ length: 40 }, (_, i) => k(`n${i}.example`));
    for (const n of names) types.set(n, [RR_TYPE.A]);
    const chain = new Nsec3Chain(zoneOf(types), 300, [k('example'), ...names]);
    const before = new Set(chain.list());
    types.set(k('new.example'), [RR_TYPE.TXT]);
    types.delete(names[3]!);
    const exists = new Set([k('example'), ...names.filter((_, i) => i !== 3), k('new.example')]);
    chain.patch(zoneOf(types), [k('new.example'), names[3]!], (key) => exists.has(key));
    expect(chain.size).toBe(41);
    checkRing(chain);
    expect(chain.matching(names[3]!)).toBeUndefined();
    expect(chain.matching(k('new.example'))).toBeDefined();
    const remade = chain.list().filter((r) => !before.has(r));
    // The new name and at most two predecessors (of the added and of the removed hash).
    expect(remade.length).toBeGreaterThanOrEqual(2);
    expect(remade.length).toBeLessThanOrEqual(3);
    const fresh = new Nsec3Chain(zoneOf(types), 300, exists);
    expect(chain.list().map((r) => Buffer.from(r.rrset.rdatas[0]!).toString('hex'))).toEqual(
      fresh.list().map((r) => Buffer.from(r.rrset.rdatas[0]!).toString('hex')),
    );
  });
});
