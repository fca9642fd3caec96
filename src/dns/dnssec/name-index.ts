/**
 * The existing names of a zone (empty non-terminals included) in canonical order (RFC 4034 §6.1),
 * for the denial builder to check that a minimally covering NSEC hides no real name.
 */
import { canonicalSortKey } from './canonical-name.ts';

export class NameIndex {
  private readonly sortKeys: string[];
  private readonly keys: string[];

  /** `keys`: name keys (see WireName) of every existing name. */
  constructor(keys: Iterable<string>) {
    const pairs = [...keys].map((k) => [canonicalSortKey(k), k] as const);
    pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this.sortKeys = pairs.map((p) => p[0]);
    this.keys = pairs.map((p) => p[1]);
  }

  get size(): number {
    return this.keys.length;
  }

  /** Index of the first name canonically greater than or equal to `sortKey`. */
  private lowerBound(sortKey: string): number {
    let lo = 0;
    let hi = this.sortKeys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sortKeys[mid]! < sortKey) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Adds a name (a zone change patched in, see zone-signing.ts); no-op when present. */
  add(key: string): void {
    const sk = canonicalSortKey(key);
    const i = this.lowerBound(sk);
    if (this.sortKeys[i] === sk) return;
    this.sortKeys.splice(i, 0, sk);
    this.keys.splice(i, 0, key);
  }

  /** Removes a name; no-op when absent. */
  delete(key: string): void {
    const sk = canonicalSortKey(key);
    const i = this.lowerBound(sk);
    if (this.sortKeys[i] !== sk) return;
    this.sortKeys.splice(i, 1);
    this.keys.splice(i, 1);
  }

  /** Every name, in canonical order (tests). */
  list(): readonly string[] {
    return this.keys;
  }

  /** The greatest existing name strictly before `key`, or null. */
  before(key: string): string | null {
    const i = this.lowerBound(canonicalSortKey(key));
    return i > 0 ? this.keys[i - 1]! : null;
  }

  /** The smallest existing name strictly after `key`, or null. */
  after(key: string): string | null {
    const sk = canonicalSortKey(key);
    let i = this.lowerBound(sk);
    if (i < this.sortKeys.length && this.sortKeys[i] === sk) i++;
    return i < this.keys.length ? this.keys[i]! : null;
  }
}
