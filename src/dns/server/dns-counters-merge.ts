/**
 * DnsCounters across processes: each DNS cluster worker counts in its own DnsCounters; the primary
 * asks them for a plain-data copy on every scrape and merges the copies into one DnsCounters that
 * the metrics read as if one process had counted everything.
 *
 * Generic over the numeric fields: every own number or Float64Array field of DnsCounters is copied
 * and merged, so a field added to DnsCounters is carried without touching this file; keyed counts
 * (LbAnswerCounts) travel as key → number records and are summed key by key. Numbers are
 * summed (counters) unless listed in MERGED_BY_MAX (times and gauges, where a sum means nothing).
 */
import type { DnsCounters } from './dns-counters.ts';
import { LbAnswerCounts } from '../steering/lb-answer-counts.ts';

function isRecord(v: unknown): v is Record<string, number> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The numeric state of one DnsCounters as plain data (IPC-safe): arrays for the typed arrays. */
export type DnsCountersSnapshot = Record<string, number | number[] | Record<string, number>>;

/** Fields merged by taking the largest value instead of the sum. */
export const MERGED_BY_MAX: ReadonlySet<string> = new Set(['lastStoreChangeMs', 'lastStoreBuildS']);

type Fields = Record<string, unknown>;

/** Copies the numeric fields of `counters` (functions are left out). */
export function snapshotCounters(counters: DnsCounters): DnsCountersSnapshot {
  const out: DnsCountersSnapshot = {};
  for (const [key, value] of Object.entries(counters as unknown as Fields)) {
    if (typeof value === 'number') out[key] = value;
    else if (value instanceof Float64Array) out[key] = Array.from(value);
    else if (value instanceof LbAnswerCounts) out[key] = value.snapshot();
  }
  return out;
}

/** An all-zero snapshot shaped like `counters`' numeric fields. */
export function emptySnapshot(counters: DnsCounters): DnsCountersSnapshot {
  const out = snapshotCounters(counters);
  for (const [key, value] of Object.entries(out)) {
    out[key] = Array.isArray(value) ? value.map(() => 0) : typeof value === 'number' ? 0 : {};
  }
  return out;
}

/** `into` += `part`, field by field (sum, or max for MERGED_BY_MAX); unknown shapes are skipped. */
export function addSnapshot(into: DnsCountersSnapshot, part: DnsCountersSnapshot): void {
  for (const [key, value] of Object.entries(part)) {
    const current = into[key];
    if (typeof value === 'number' && typeof current === 'number') {
      into[key] = MERGED_BY_MAX.has(key) ? Math.max(current, value) : current + value;
    } else if (Array.isArray(value) && Array.isArray(current)) {
      for (let i = 0; i < current.length && i < value.length; i++) current[i]! += value[i] ?? 0;
    } else if (isRecord(value) && isRecord(current)) {
      for (const [k, n] of Object.entries(value)) current[k] = (current[k] ?? 0) + n;
    }
  }
}

/** Sets `counters`' numeric fields to the merge of `parts` (zero when there are none). */
export function loadMergedCounters(counters: DnsCounters, parts: readonly DnsCountersSnapshot[]): void {
  const total = emptySnapshot(counters);
  for (const part of parts) addSnapshot(total, part);
  const fields = counters as unknown as Fields;
  for (const [key, value] of Object.entries(total)) {
    const target = fields[key];
    if (target instanceof Float64Array && Array.isArray(value)) target.set(value.slice(0, target.length));
    else if (target instanceof LbAnswerCounts && isRecord(value)) target.load(value);
    else if (typeof target === 'number' && typeof value === 'number') fields[key] = value;
  }
}

/** The sum of a snapshot's query counts (all zone classes, RCODEs, transports). */
export function snapshotQueryTotal(snapshot: DnsCountersSnapshot): number {
  const queries = snapshot.queries;
  return Array.isArray(queries) ? queries.reduce((a, b) => a + b, 0) : 0;
}
