import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ZoneData } from '../../dns/index.ts';
import { Sealer } from '../../kernel/crypto/sealing.ts';
import { RECORDS_PER_PIECE, SnapshotFile } from './snapshot-file.ts';

const dirs: string[] = [];
function dir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'snapshot-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
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
    const file = SnapshotFile.inDir(dir(), { debounceMs: 10 });
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
    const file = SnapshotFile.inDir(dir(), { debounceMs: 10 });
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
    const file = SnapshotFile.inDir(dir(), { debounceMs: 10, keys: { sealer, context } });
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
    const file = SnapshotFile.inDir(dir(), { debounceMs: 20 });
    expect(await file.read()).toBeNull();
    file.upsert(zone(3, 1));
    await new Promise((r) => setTimeout(r, 200));
    expect((await file.read())?.map((z) => z.id)).toEqual([3]);
  });

  it('answers null for a file cut short, with trailing bytes, or of another format', async () => {
    const file = SnapshotFile.inDir(dir(), { debounceMs: 10 });
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
    const file = SnapshotFile.inDir(dir(), { debounceMs: 10 });
    file.replaceAll(zones);
    await file.flush();
    expect(await new SnapshotFile(file.file).read()).toEqual(zones);
  });
});
