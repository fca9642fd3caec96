/**
 * Finished authority sections of signed negative answers (SOA, NSEC proofs and their RRSIGs), by
 * query name and kind, for one zone snapshot's signing. Building the proofs walks the name index
 * and signs by content, tens of microseconds even when every signature is cached; a repeated
 * NXDOMAIN or NODATA (a resolver re-asking, a monitoring probe) then costs a copy instead.
 *
 * An entry is used for ENTRY_LIFETIME_MS at most: far inside the signatures' refresh margin, so a
 * cached proof never outlives its RRSIGs. Random names miss, and each inserts one entry; the LRU
 * bound keeps a flood of them from growing memory.
 */
import type { WireName } from '../wire/wire-name.ts';
import type { RRset } from '../wire/rrset-encoding.ts';

export const DENIAL_CACHE_DEFAULT_SIZE = 10_000;
export const ENTRY_LIFETIME_MS = 60_000;

/** A copy of an authority section: entries in order, as the response writer takes them. */
export interface CachedDenial {
  readonly owners: readonly (WireName | null)[];
  readonly sets: readonly RRset[];
  readonly mandatory: readonly boolean[];
  readonly expiresMs: number;
}

export class DenialAnswerCache {
  private readonly entries = new Map<string, CachedDenial>();

  constructor(readonly maxEntries: number = DENIAL_CACHE_DEFAULT_SIZE) {}

  get size(): number {
    return this.entries.size;
  }

  /** The entry for `key` if present and not expired at `nowMs`. */
  get(key: string, nowMs: number): CachedDenial | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    if (nowMs >= e.expiresMs) {
      this.entries.delete(key);
      return undefined;
    }
    // Map order is insertion order: re-inserting keeps the least recently used first.
    this.entries.delete(key);
    this.entries.set(key, e);
    return e;
  }

  set(key: string, entry: Omit<CachedDenial, 'expiresMs'>, nowMs: number): void {
    this.entries.delete(key);
    this.entries.set(key, { ...entry, expiresMs: nowMs + ENTRY_LIFETIME_MS });
    if (this.entries.size > this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
  }
}
