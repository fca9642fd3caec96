import { nameKeyHash } from '../wire/name-key-hash.ts';
import type { ZoneNode } from './zone-snapshot.ts';

/** Filter bits per name, at least (the filter grows fourfold when the names would have fewer). */
const BITS_PER_NAME = 8;
const MIN_BITS = 1024;

/**
 * A zone's names by canonical key, with a filter of their key hashes (name-key-hash.ts): a bit per
 * hash, set by every `set` (the builder's and a patch's alike), never cleared by `delete` (a stale
 * bit only sends a lookup on to the Map). `mayHave(hash)` false means no name with that key exists;
 * a query name is then known absent without the Map hashing its new key string and probing.
 */
export class NodeTable extends Map<string, ZoneNode> {
  private bits = new Int32Array(MIN_BITS >> 5);
  private shift = 32 - Math.log2(MIN_BITS);

  override set(key: string, node: ZoneNode): this {
    if (!super.has(key)) {
      // At most one name per BITS_PER_NAME bits: about one lookup in 8 of an absent name passes.
      if ((this.size + 1) * BITS_PER_NAME > this.bits.length << 5) this.grow();
      this.mark(nameKeyHash(key));
    }
    return super.set(key, node);
  }

  /** False when no name with a key of this hash is in the table. */
  mayHave(hash: number): boolean {
    const bit = Math.imul(hash, FILTER_MIX) >>> this.shift;
    return (this.bits[bit >>> 5]! & (1 << (bit & 31))) !== 0;
  }

  private mark(hash: number): void {
    const bit = Math.imul(hash, FILTER_MIX) >>> this.shift;
    this.bits[bit >>> 5]! |= 1 << (bit & 31);
  }

  private grow(): void {
    const total = (this.bits.length << 5) * 4;
    this.bits = new Int32Array(total >> 5);
    this.shift = 32 - Math.log2(total);
    for (const key of super.keys()) this.mark(nameKeyHash(key));
  }
}

/** Spreads the hash's bits to the top, where the filter takes its bit number from. */
const FILTER_MIX = 0x9e3779b1 | 0;
