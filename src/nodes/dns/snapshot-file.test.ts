import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ZoneData, ZoneNamesData } from '../../dns/index.ts';
import {
  PACKED_ZONE_RECORDS,
  ZoneStore,
  applyNamesChange,
  packedZone,
  recordsPiece,
} from '../../dns/index.ts';
import { Sealer } from '../../kernel/crypto/sealing.ts';
import { RECORDS_PER_PIECE, SnapshotFile } from './snapshot-file.ts';

const dirs: string[] = [];
function dir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'snapshot-'));
  dirs.push(d);
  return d;
}
/** Mirrors hold the file they wrote open: each is closed after its test. */
const mirrors: SnapshotFile[] = [];
function mirrorIn(d: string, options: ConstructorParameters<typeof SnapshotFile>[1]): SnapshotFile {
  const file = SnapshotFile.inDir(d, options);
  mirrors.push(file);
  return file;
}
afterEach(async () => {
  await Promise.all(mirrors.splice(0).map((m) => m.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const SECRET = 'c2VjcmV0LXRzaWcta2V5LW5ldmVyLWluLWNsZWFy';
/** Binds a sealed key to its zone and role, as the DNS module's context does. */
const context = (zoneId: number, role: string): string => `test-key:${zoneId}:${role}`;
const zone = (id: number, serial: number): ZoneData =>
  ({
    id,
    domain: `z${id}.example`,
    serial,
    records: [{ name: `www.z${id}.example`, type: 1, ttl: 60, rdata: new Uint8Array([192, 0, 2, id]) }],
    steering: { pools: [], loadBalancers: [] },
    // Signing keys (written sealed only) and a TSIG secret (never written).
    dnssec: {
      algorithm: 13,
      nsecTtl: 300,
      ksk: { algorithm: 13, keyTag: 11, privateKeyPkcs8: new TextEncoder().encode('PRIVATE-KSK-MATERIAL') },
      zsk: { algorithm: 13, keyTag: 22, privateKeyPkcs8: new TextEncoder().encode('PRIVATE-ZSK-MATERIAL') },
    },
    transfer: { allowFrom: [], tsig: { name: 'k', algorithm: 'hmac-sha256', secret: Buffer.from(SECRET) } },
  }) as unknown as ZoneData;

describe('SnapshotFile', () => {
  it('round-trips zones, rdata included, and follows upserts and removals', async () => {
    const file = mirrorIn(dir(), { debounceMs: 10 });
    file.replaceAll([zone(1, 1), zone(2, 1)]);
    file.upsert(zone(1, 2));
    file.remove(2);
    await file.flush();
    const read = await new SnapshotFile(file.file).read();
    expect(read).toEqual([
      {
        id: 1,
        domain: 'z1.example',
        serial: 2,
        records: [{ name: 'www.z1.example', type: 1, ttl: 60, rdata: new Uint8Array([192, 0, 2, 1]) }],
        steering: { pools: [], loadBalancers: [] },
      },
    ]);
  });

  it('never writes DNSSEC keys in clear nor TSIG secrets; without a sealer, no keys at all', async () => {
    const file = mirrorIn(dir(), { debounceMs: 10 });
    file.replaceAll([zone(1, 1)]);
    await file.flush();
    const text = readFileSync(file.file, 'utf8');
    expect(text).not.toContain('PRIVATE-');
    expect(text).not.toContain(Buffer.from('PRIVATE-KSK-MATERIAL').toString('base64'));
    expect(text).not.toContain(Buffer.from(SECRET).toString('base64'));
    expect(text).not.toContain('dnssec');
    expect(text).not.toContain('transfer');
  });

  it('keeps signing keys sealed as the database does, so a cold start answers signed', async () => {
    const sealer = new Sealer(randomBytes(32));
    const file = mirrorIn(dir(), { debounceMs: 10, keys: { sealer, context } });
    file.replaceAll([zone(1, 1)]);
    await file.flush();
    const text = readFileSync(file.file, 'utf8');
    expect(text).toContain('"dnssec"');
    expect(text).not.toContain('PRIVATE-');
    expect(text).not.toContain(Buffer.from('PRIVATE-KSK-MATERIAL').toString('base64'));
    const [read] = (await new SnapshotFile(file.file, { keys: { sealer, context } }).read())!;
    expect(read!.dnssec).toEqual(zone(1, 1).dnssec);
    // Sealed under the key and the zone's own context: another key, or the keys moved to
    // another zone, open nothing (served unsigned until the database answers).
    expect(
      (await new SnapshotFile(file.file, {
        keys: { sealer: new Sealer(randomBytes(32)), context },
      }).read())![0]!.dnssec,
    ).toBe(undefined);
    const bytes = readFileSync(file.file);
    const at = bytes.indexOf('"id":1,');
    expect(at).toBeGreaterThan(0);
    bytes.write('"id":9,', at);
    writeFileSync(file.file, bytes);
    expect((await new SnapshotFile(file.file, { keys: { sealer, context } }).read())![0]!.dnssec).toBe(
      undefined,
    );
  });

  it('writes within the debounce after a change, and answers null without a file', async () => {
    const file = mirrorIn(dir(), { debounceMs: 20 });
    expect(await file.read()).toBeNull();
    file.upsert(zone(3, 1));
    await new Promise((r) => setTimeout(r, 200));
    expect((await file.read())?.map((z) => z.id)).toEqual([3]);
  });

  it('answers null for a file cut short, with trailing bytes, or of another format', async () => {
    const file = mirrorIn(dir(), { debounceMs: 10 });
    file.replaceAll([zone(1, 1), zone(2, 1)]);
    await file.flush();
    const whole = readFileSync(file.file);
    for (const bad of [
      whole.subarray(0, whole.length - 1),
      Buffer.concat([whole, Buffer.of(0)]),
      Buffer.from('{"format":1,"zones":[]}'),
    ]) {
      writeFileSync(file.file, bad);
      expect(await new SnapshotFile(file.file).read()).toBeNull();
    }
  });

  it('writes zones larger than one piece, and several zones, record for record', async () => {
    const big = (id: number, n: number): ZoneData => ({
      id,
      domain: `big${id}.example`,
      serial: 7,
      records: Array.from({ length: n }, (_, i) => ({
        name: `h${i}.big${id}.example`,
        type: 16,
        ttl: i,
        rdata: new Uint8Array([3, 0x61, i & 0xff, (i >> 8) & 0xff]),
      })),
    });
    const zones = [big(1, 2 * RECORDS_PER_PIECE + 3), big(2, 0), big(3, RECORDS_PER_PIECE)];
    const file = mirrorIn(dir(), { debounceMs: 10 });
    file.replaceAll(zones);
    await file.flush();
    expect(await new SnapshotFile(file.file).read()).toEqual(zones);
  });

  /** A zone of `n` hosts (A, some with TXT too) after its SOA and NS, owners in order. */
  const hosts = (n: number, serial: number): ZoneData => {
    const records: ZoneData['records'][number][] = [
      {
        name: 'h.example',
        type: 6,
        ttl: 300,
        rdata: Uint8Array.of(0, 0, 0, 0, 0, 0, 0, serial, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 60),
      },
      { name: 'h.example', type: 2, ttl: 300, rdata: Uint8Array.of(2, 0x6e, 0x73, 0) },
    ];
    for (let i = 0; i < n; i++) {
      records.push({
        name: `host${i}.h.example`,
        type: 1,
        ttl: 60,
        rdata: Uint8Array.of(192, 0, 2, i & 0xff),
      });
      if (i % 3 === 0)
        records.push({
          name: `host${i}.h.example`,
          type: 16,
          ttl: 60,
          rdata: Uint8Array.of(1, 0x61 + (i % 26)),
        });
    }
    return { id: 5, domain: 'h.example', serial, records };
  };

  /** A change to `names`: new records at some, none at others (deleted), and a new SOA. */
  const change = (zone: ZoneData, step: number, names: string[]): ZoneNamesData => {
    const soa = zone.records.find((r) => r.type === 6)!;
    const rdata = Uint8Array.from(soa.rdata);
    rdata[7] = step & 0xff;
    return {
      serial: zone.serial + 1,
      soa: { ...soa, rdata },
      records: names
        .filter((_, i) => (i + step) % 3 !== 0)
        .map((name, i) => ({ name, type: 1, ttl: 30 + step, rdata: Uint8Array.of(198, 51, 100, i) })),
    };
  };

  it('applies changes to a few names to the zones it keeps, packed or not, as applyNamesChange does', async () => {
    for (const packFirst of [true, false]) {
      const file = mirrorIn(dir(), { debounceMs: 10_000 });
      let expected = hosts(2 * RECORDS_PER_PIECE, 1);
      file.replaceAll([expected]);
      if (packFirst) await file.flush();
      for (let step = 1; step <= 40; step++) {
        const names = [
          `host${(step * 977) % 10_000}.h.example`,
          `new${step}.h.example`,
          `host${step}.h.example`,
        ];
        const part = change(expected, step, names);
        file.applyNames(5, part, names);
        expected = applyNamesChange(expected, part, names)!;
        if (step % 10 === 0) {
          await file.flush();
          expect(await new SnapshotFile(file.file).read(), `step ${step}`).toEqual([expected]);
        }
      }
      // Unknown zones are ignored.
      file.applyNames(99, change(expected, 1, ['x.h.example']), ['x.h.example']);
      await file.flush();
      expect(await new SnapshotFile(file.file).read()).toEqual([expected]);
    }
  });

  it('applies changes to a zone handed over packed before its first write, as applyNamesChange does', async () => {
    const file = mirrorIn(dir(), { debounceMs: 10_000 });
    let expected = hosts(50, 1);
    file.replaceAll([packedZone(expected)]);
    const pool = ['host1.h.example', 'host2.h.example', 'x.h.example', 'host4.h.example'];
    for (let step = 1; step <= 3; step++) {
      const names = pool.filter((_, i) => (i + step) % 2 === 0);
      const part = change(expected, step, names);
      file.applyNames(5, part, names);
      expected = applyNamesChange(expected, part, names)!;
    }
    await file.flush();
    expect(await new SnapshotFile(file.file).read()).toEqual([expected]);
  });

  it('applies many changes to the same names in one write as applyNamesChange does in turn', async () => {
    const file = mirrorIn(dir(), { debounceMs: 10_000 });
    let expected = hosts(50, 1);
    file.replaceAll([expected]);
    await file.flush();
    const pool = ['host1.h.example', 'host2.h.example', 'host3.h.example', 'x.h.example', 'y.h.example'];
    for (let step = 1; step <= 12; step++) {
      const names = pool.filter((_, i) => (i * 7 + step) % 3 !== 0);
      const part = change(expected, step, names);
      file.applyNames(5, part, names);
      expected = applyNamesChange(expected, part, names)!;
    }
    await file.flush();
    expect(await new SnapshotFile(file.file).read()).toEqual([expected]);
  });

  it('keeps written records in the file alone: a change is copied from the file it holds, even once that is unlinked', async () => {
    const d = dir();
    const file = mirrorIn(d, { debounceMs: 10_000 });
    let expected = hosts(3 * RECORDS_PER_PIECE, 1);
    file.replaceAll([expected, { ...hosts(2, 1), id: 6 }]);
    await file.flush();
    // Someone removes the file: the mirror still has the records, in the file it holds open.
    rmSync(file.file);
    const names = ['host10.h.example', 'host11.h.example', 'brand-new.h.example'];
    const part = change(expected, 1, names);
    file.applyNames(5, part, names);
    expected = applyNamesChange(expected, part, names)!;
    await file.flush();
    const read = (await new SnapshotFile(file.file).read())!;
    expect(read[0]).toEqual(expected);
    expect(read[1]).toEqual({ ...hosts(2, 1), id: 6 });
  });

  it('a change that arrives while the file is being written is in the next write', async () => {
    const d = dir();
    const file = mirrorIn(d, { debounceMs: 10_000 });
    let expected = hosts(4 * RECORDS_PER_PIECE, 1);
    file.replaceAll([expected]);
    await file.flush();
    const steps = [
      ['host1.h.example'],
      ['host2.h.example', 'x.h.example'],
      ['host1.h.example', 'y.h.example'],
    ];
    for (const [i, names] of steps.entries()) {
      const part = change(expected, i + 1, names);
      file.applyNames(5, part, names);
      expected = applyNamesChange(expected, part, names)!;
      if (i === steps.length - 1) break;
      // The next change arrives once this write has taken the zones (its temp file has bytes).
      void file.flush();
      const started = (): boolean =>
        readdirSync(d).some(
          (f) => f.endsWith('.tmp') && (statSync(path.join(d, f), { throwIfNoEntry: false })?.size ?? 0) > 0,
        );
      let turns = 0;
      while (!started()) {
        if (++turns > 10_000) throw new Error('the write was not seen under way');
        await new Promise((r) => setImmediate(r));
      }
    }
    await file.flush();
    expect(await new SnapshotFile(file.file).read()).toEqual([expected]);
  });

  it('serves a cold start from the file without writing it again, and writes the first change after', async () => {
    const d = dir();
    const first = mirrorIn(d, { debounceMs: 10 });
    const zone = hosts(100, 1);
    first.replaceAll([zone, { ...hosts(1, 1), id: 6 }]);
    await first.flush();
    const inode = statSync(first.file).ino;
    const cold = mirrorIn(d, { debounceMs: 10 });
    const read = (await cold.read())!;
    cold.replaceAll(read);
    await new Promise((r) => setTimeout(r, 100));
    await cold.flush();
    expect(statSync(cold.file).ino).toBe(inode);
    const part = change(read[0]!, 2, ['host7.h.example']);
    cold.applyNames(5, part, ['host7.h.example']);
    await cold.flush();
    expect(statSync(cold.file).ino).not.toBe(inode);
    const after = (await new SnapshotFile(cold.file).read())!;
    expect(after[0]).toEqual(applyNamesChange(read[0]!, part, ['host7.h.example']));
    expect(after[1]).toEqual(read[1]);
    // Zones other than the ones read are written.
    cold.replaceAll([read[1]!]);
    await cold.flush();
    expect((await new SnapshotFile(cold.file).read())!.map((z) => z.id)).toEqual([6]);
  });

  it('hands a large zone over packed, as it lies in the file, and writes it whole again from there', async () => {
    const d = dir();
    const first = mirrorIn(d, { debounceMs: 10 });
    // Two records a host from one in three: PACKED_ZONE_RECORDS records and a few.
    const zone = hosts(Math.ceil((PACKED_ZONE_RECORDS * 3) / 4), 1);
    expect(zone.records.length).toBeGreaterThanOrEqual(PACKED_ZONE_RECORDS);
    first.replaceAll([zone, { ...hosts(1, 1), id: 6 }]);
    await first.flush();
    const read = (await mirrorIn(d, { debounceMs: 10 }).read())!;
    const packed = read[0]!;
    expect(packed.packed?.count).toBe(zone.records.length);
    expect(Buffer.from(packed.packed!.bytes).equals(recordsPiece(zone.records, 0, zone.records.length))).toBe(
      true,
    );
    // The apex's records alone beside it; a small zone as records.
    expect(packed.records).toEqual(zone.records.filter((r) => r.name === 'h.example'));
    expect(read[1]!.packed).toBeUndefined();
    expect(read[1]!.records).toHaveLength(4);
    // Served packed, it answers as the zone it was.
    const store = new ZoneStore();
    store.replaceAll([packed]);
    expect(store.get(5)!.nodes.size).toBe(new Set(zone.records.map((r) => r.name)).size);
    // A mirror given it as zones other than its own read writes its records whole from the bytes.
    const other = mirrorIn(dir(), { debounceMs: 10 });
    other.replaceAll([packed]);
    await other.flush();
    const again = (await new SnapshotFile(other.file).read())!;
    expect(again[0]!.packed?.count).toBe(zone.records.length);
    expect(Buffer.from(again[0]!.packed!.bytes).equals(Buffer.from(packed.packed!.bytes))).toBe(true);
  });
});
