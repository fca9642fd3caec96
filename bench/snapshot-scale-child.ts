/**
 * One snapshot-scale measurement in a fresh process (so every size starts from a clean heap):
 * builds `ZoneData` for N records directly (no zone-file parsing, so only the snapshot is
 * measured), then times `ZoneStore.replaceAll` and reports the resident-memory and heap growth it
 * caused, after a full GC on both sides. Prints one JSON line (SnapshotScaleResult).
 * `node --expose-gc --import tsx bench/snapshot-scale-child.ts <records>`; run by bench/scale-suite.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SnapshotFile } from '../src/nodes/dns/snapshot-file.ts';
import { pathToFileURL } from 'node:url';
import { ZoneStore, applyNamesChange } from '../src/dns/index.ts';
import type { ZoneData, ZoneRecordData } from '../src/dns/index.ts';

export interface SnapshotScaleResult {
  records: number;
  /** Names in the snapshot (owners plus empty non-terminals). */
  nodes: number;
  buildMs: number;
  /** Resident set growth caused by the snapshot (after GC), MiB. */
  rssDeltaMiB: number;
  /** Of which JS heap (objects, strings, arrays) and ArrayBuffer backing stores (Buffers), MiB. */
  heapDeltaMiB: number;
  arrayBuffersDeltaMiB: number;
  /** The ZoneData input alone (what the control plane hands over), MiB of RSS. */
  inputRssMiB: number;
  /** Whole-process resident set after the build and its peak (VmHWM), MiB. */
  rssAfterMiB: number;
  peakRssMiB: number;
  /**
   * A one-name record change applied to the built zone (ZoneStore.patch, what a DNS node does for
   * a record change once it has read that name), median and slowest of PATCHES, ms.
   */
  patchP50Ms: number;
  patchMaxMs: number;
  /** Resident set growth over the input after the patches (the patch index included), MiB. */
  rssDeltaAfterPatchesMiB: number;
  /** Writing the zone to the snapshot file (SnapshotFile), and the longest event-loop stall meanwhile, ms. */
  fileWriteMs: number;
  fileWriteMaxStallMs: number;
}

/** Times a snapshot-file write of `zone` and the longest gap between 5 ms ticks while it runs. */
async function timeFileWrite(zone: ZoneData): Promise<{ ms: number; maxStallMs: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'scale-snapshot-'));
  try {
    const file = SnapshotFile.inDir(dir, { debounceMs: 0 });
    let last = performance.now();
    let maxStallMs = 0;
    const tick = setInterval(() => {
      const now = performance.now();
      maxStallMs = Math.max(maxStallMs, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    file.upsert(zone);
    await file.flush();
    const ms = performance.now() - started;
    clearInterval(tick);
    return { ms: Math.round(ms), maxStallMs: Math.round(maxStallMs) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const PATCHES = 20;

const ORIGIN = 'scale.example';
const MiB = 1024 * 1024;
const TYPE = { A: 1, CNAME: 5, MX: 15, TXT: 16, AAAA: 28, SRV: 33, SOA: 6, NS: 2 } as const;

function nameWire(text: string): Uint8Array {
  const bytes: number[] = [];
  for (const label of text.split('.')) bytes.push(label.length, ...Buffer.from(label, 'latin1'));
  bytes.push(0);
  return Uint8Array.from(bytes);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

/**
 * Exactly `count` records in the same six-type pattern as bench/zone-import.bench.ts (A, AAAA,
 * MX, TXT, CNAME, SRV per host), plus the apex SOA and NS; deterministic.
 */
export function scaleZoneData(count: number): ZoneData {
  const records: ZoneRecordData[] = [];
  const rec = (name: string, type: number, rdata: Uint8Array): void => {
    records.push({ name, type, ttl: 3600, rdata });
  };
  const soaFixed = Buffer.alloc(20);
  soaFixed.writeUInt32BE(1, 0);
  rec(ORIGIN, TYPE.SOA, concat(nameWire(`ns1.${ORIGIN}`), nameWire(`hostmaster.${ORIGIN}`), soaFixed));
  rec(ORIGIN, TYPE.NS, nameWire(`ns1.${ORIGIN}`));
  let n = 0;
  for (let i = 0; n < count; i++) {
    const h = `host${i}.${ORIGIN}`;
    const v6 = Buffer.alloc(16);
    v6.writeUInt32BE(0x20010db8, 0);
    v6.writeUInt32BE(i, 12);
    const txt = Buffer.from(`id=${i}`);
    const srvFixed = Buffer.alloc(6);
    srvFixed.writeUInt16BE(10, 0);
    srvFixed.writeUInt16BE(i % 100, 2);
    srvFixed.writeUInt16BE(5060, 4);
    const kinds: Array<() => void> = [
      () => rec(h, TYPE.A, Uint8Array.of(10, (i >> 16) & 255, (i >> 8) & 255, i & 255)),
      () => rec(h, TYPE.AAAA, new Uint8Array(v6)),
      () => rec(h, TYPE.MX, concat(Uint8Array.of(0, i % 50), nameWire(`mx${i % 10}.${ORIGIN}`))),
      () => rec(h, TYPE.TXT, concat(Uint8Array.of(txt.length), txt)),
      () => rec(`alias${i}.${ORIGIN}`, TYPE.CNAME, nameWire(h)),
      () => rec(`_sip._tcp.${h}`, TYPE.SRV, concat(srvFixed, nameWire(h))),
    ];
    for (const k of kinds) {
      if (n === count) break;
      k();
      n++;
    }
  }
  return { id: 1, domain: ORIGIN, serial: 1, records };
}

function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (!g) throw new Error('run with --expose-gc');
  g();
  g();
}

function peakRssMiB(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function main(): Promise<void> {
  const count = Number(process.argv[2]);
  if (!(count > 0)) throw new Error('usage: snapshot-scale-child.ts <records>');
  gc();
  const m0 = process.memoryUsage();
  const zone = scaleZoneData(count);
  gc();
  const m1 = process.memoryUsage();
  const store = new ZoneStore();
  const started = performance.now();
  store.replaceAll([zone]);
  const buildMs = performance.now() - started;
  gc();
  const m2 = process.memoryUsage();
  const snap = store.get(1)!;
  // The index ZoneStore prepares in slices after a build of a large zone. Its turns do not keep a
  // process alive (a DNS node has its sockets): this one waits on a timer of its own.
  const alive = setInterval(() => undefined, 1000);
  await store.patchingPrepared();
  clearInterval(alive);
  const patchMs: number[] = [];
  let current = zone;
  for (let k = 0; k < PATCHES; k++) {
    const name = `host${(k * 7919) % Math.max(1, Math.floor(count / 6))}.${ORIGIN}`;
    const soa = current.records[0]!;
    const part = {
      serial: current.serial + 1,
      soa,
      records: [{ name, type: TYPE.A, ttl: 60, rdata: Uint8Array.of(192, 0, 2, k) }],
    };
    const t0 = performance.now();
    const next = applyNamesChange(current, part, [name])!;
    store.patch(next, [name]);
    patchMs.push(performance.now() - t0);
    current = next;
  }
  patchMs.sort((a, b) => a - b);
  gc();
  const m3 = process.memoryUsage();
  const fileWrite = await timeFileWrite(current);
  const result: SnapshotScaleResult = {
    records: zone.records.length,
    nodes: snap.nodes.size,
    buildMs: Math.round(buildMs),
    rssDeltaMiB: (m2.rss - m1.rss) / MiB,
    heapDeltaMiB: (m2.heapUsed - m1.heapUsed) / MiB,
    arrayBuffersDeltaMiB: (m2.arrayBuffers - m1.arrayBuffers) / MiB,
    inputRssMiB: (m1.rss - m0.rss) / MiB,
    rssAfterMiB: m2.rss / MiB,
    peakRssMiB: peakRssMiB(),
    patchP50Ms: Math.round(patchMs[PATCHES >> 1]! * 10) / 10,
    patchMaxMs: Math.round(patchMs.at(-1)! * 10) / 10,
    rssDeltaAfterPatchesMiB: (m3.rss - m1.rss) / MiB,
    fileWriteMs: fileWrite.ms,
    fileWriteMaxStallMs: fileWrite.maxStallMs,
  };
  console.log(JSON.stringify(result));
}

// A module too (scaleZoneData is reusable): measure only when run as the script.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
