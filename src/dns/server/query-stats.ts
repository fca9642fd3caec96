/**
 * Per-zone query counters (by QTYPE mnemonic and by RCODE, per UTC hour), kept in memory and
 * handed in batches to a narrow sink every `flushIntervalMs`.
 *
 * Contract:
 * - `record()` is the hot path: a map lookup (none when the zone is the previous query's) and
 *   increments in small typed arrays (common QTYPEs and RCODEs; a map for the rest); the only
 *   allocation is the first time a zone, or an uncommon qtype or rcode, is seen in an hour.
 * - Counts are keyed by the hour the query arrived in (`now()` of the injected clock); an hour
 *   that ends is kept until the next flush, so nothing is lost at the boundary.
 * - `flush()` hands over everything counted since the previous flush and resets; the sink must
 *   not throw (a throwing sink loses that batch, never the server).
 * - Queries with no served zone (zoneId < 0) and without a question (qtype < 0) are not counted.
 */
import { typeToText } from '../wire/rr-type.ts';

export const MS_PER_HOUR = 3_600_000;
/** Default flush period. */
export const DEFAULT_STATS_FLUSH_MS = 60_000;

export interface QueryStatsRow {
  zoneId: number;
  /** ISO 8601 start of the UTC hour, e.g. "2025-01-01T13:00:00.000Z". */
  hour: string;
  byType: Record<string, number>;
  byRcode: Record<string, number>;
  total: number;
}

export interface QueryStatsSink {
  flush(batch: QueryStatsRow[]): void;
}

export interface QueryStatsOptions {
  sink: QueryStatsSink;
  flushIntervalMs?: number;
  now?: () => number;
}

export interface QueryStats {
  /**
   * Counts one answered query; `atMs` is when it arrived by the stats' clock (now() when left out;
   * a UDP batch reads the clock once for all its queries).
   */
  record(zoneId: number, qtype: number, rcode: number, atMs?: number): void;
  /** The stats' clock (ms). */
  now(): number;
  /** Sends and clears what has been counted; a no-op (no sink call) when nothing was. */
  flush(): void;
  /** Starts the periodic flush timer (unref'd: it never keeps the process alive). */
  start(): void;
  /** Stops the timer and flushes what is left. */
  stop(): void;
}

/** QTYPEs counted in a typed array (the rest in a map): A NS CNAME SOA PTR MX TXT AAAA SRV DS DNSKEY HTTPS ANY CAA SVCB NAPTR. */
const COMMON_TYPES = [1, 2, 5, 6, 12, 15, 16, 28, 33, 43, 48, 65, 255, 257, 64, 35];
const TYPE_SLOT = new Int8Array(258).fill(-1);
COMMON_TYPES.forEach((t, i) => (TYPE_SLOT[t] = i));
/** RCODEs 0..16 (BADVERS) counted in a typed array. */
const RCODE_ARRAY = 17;

interface Counters {
  hourIndex: number;
  types: Float64Array;
  otherTypes: Map<number, number> | null;
  rcodes: Float64Array;
  otherRcodes: Map<number, number> | null;
  total: number;
}

/** RFC 1035 §4.1.1, RFC 2136, RFC 6891 §6.1.3 mnemonics; others as RCODEnnn. */
const RCODE_NAMES = [
  'NOERROR',
  'FORMERR',
  'SERVFAIL',
  'NXDOMAIN',
  'NOTIMP',
  'REFUSED',
  'YXDOMAIN',
  'YXRRSET',
  'NXRRSET',
  'NOTAUTH',
  'NOTZONE',
];
const BADVERS = 16;

export function rcodeToText(rcode: number): string {
  if (rcode === BADVERS) return 'BADVERS';
  return RCODE_NAMES[rcode] ?? `RCODE${rcode}`;
}

function increment(map: Map<number, number>, key: number): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function countType(c: Counters, qtype: number): void {
  const slot = qtype < TYPE_SLOT.length ? TYPE_SLOT[qtype]! : -1;
  if (slot >= 0) c.types[slot]!++;
  else increment((c.otherTypes ??= new Map()), qtype);
}

function countRcode(c: Counters, rcode: number): void {
  if (rcode < RCODE_ARRAY) c.rcodes[rcode]!++;
  else increment((c.otherRcodes ??= new Map()), rcode);
}

export function createQueryStats(opts: QueryStatsOptions): QueryStats {
  const now = opts.now ?? Date.now;
  const interval = opts.flushIntervalMs ?? DEFAULT_STATS_FLUSH_MS;
  /** Current hour bucket per zone. */
  let current = new Map<number, Counters>();
  /** Buckets of hours that ended before the next flush. */
  let closed: Array<{ zoneId: number; c: Counters }> = [];
  let timer: NodeJS.Timeout | null = null;

  /** The previous query's zone and counters (a flood or a busy zone repeats). */
  let lastZoneId = -1;
  let last: Counters | null = null;

  function fresh(hourIndex: number): Counters {
    return {
      hourIndex,
      types: new Float64Array(COMMON_TYPES.length),
      otherTypes: null,
      rcodes: new Float64Array(RCODE_ARRAY),
      otherRcodes: null,
      total: 0,
    };
  }

  function toRow(zoneId: number, c: Counters): QueryStatsRow {
    const byType: Record<string, number> = {};
    COMMON_TYPES.forEach((t, i) => {
      if (c.types[i]! > 0) byType[typeToText(t)] = c.types[i]!;
    });
    for (const [t, n] of c.otherTypes ?? []) byType[typeToText(t)] = n;
    const byRcode: Record<string, number> = {};
    c.rcodes.forEach((n, r) => {
      if (n > 0) byRcode[rcodeToText(r)] = n;
    });
    for (const [r, n] of c.otherRcodes ?? []) byRcode[rcodeToText(r)] = n;
    return {
      zoneId,
      hour: new Date(c.hourIndex * MS_PER_HOUR).toISOString(),
      byType,
      byRcode,
      total: c.total,
    };
  }

  const stats: QueryStats = {
    now,
    record(zoneId, qtype, rcode, atMs) {
      if (zoneId < 0 || qtype < 0) return;
      const hourIndex = Math.floor((atMs ?? now()) / MS_PER_HOUR);
      let c = zoneId === lastZoneId && last !== null ? last : current.get(zoneId);
      if (c === undefined) {
        c = fresh(hourIndex);
        current.set(zoneId, c);
      } else if (c.hourIndex !== hourIndex) {
        closed.push({ zoneId, c });
        c = fresh(hourIndex);
        current.set(zoneId, c);
      }
      countType(c, qtype);
      countRcode(c, rcode);
      c.total++;
      lastZoneId = zoneId;
      last = c;
    },
    flush() {
      if (current.size === 0 && closed.length === 0) return;
      const batch: QueryStatsRow[] = [];
      for (const { zoneId, c } of closed) batch.push(toRow(zoneId, c));
      for (const [zoneId, c] of current) if (c.total > 0) batch.push(toRow(zoneId, c));
      current = new Map();
      closed = [];
      last = null;
      if (batch.length === 0) return;
      try {
        opts.sink.flush(batch);
      } catch {
        // Contract: a failing sink loses this batch only.
      }
    },
    start() {
      if (timer !== null) return;
      timer = setInterval(() => stats.flush(), interval);
      timer.unref();
    },
    stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
      stats.flush();
    },
  };
  return stats;
}
