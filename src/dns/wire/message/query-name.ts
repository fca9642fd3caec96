import { NAME_MAX } from './message-constants.ts';
import { NAME_HASH_OFFSET } from '../name-key-hash.ts';

/** Labels of a name at most (255 bytes of wire, each label at least 2 bytes). */
export const QUERY_LABELS_MAX = 128;

/** Node's Buffer#latin1Slice (what toString('latin1') calls after argument checks). */
interface Latin1Sliceable {
  latin1Slice(start: number, end: number): string;
}

/**
 * The question name of a parsed query (query-parser.ts), one object reused per call site: its
 * lower-cased wire, where each label starts and the name-key hash of every suffix. Suffix i is the
 * name from label i on; its key is WireName's canonical key (the lower-cased wire without the root
 * byte, a character per byte). Key strings are made only when asked for, once per query, so an
 * answer that needs none (a name the zone's filter rules out, answered from the apex) makes no
 * string; `equalsKey` compares a key with the bytes.
 */
export class QueryName {
  /** Lower-cased wire, terminal zero included, in [0, wireLength). */
  readonly lower = Buffer.alloc(NAME_MAX + 1);
  wireLength = 1;
  /** Labels of the name (0 for the root, and when the query has no question). */
  labels = 0;
  /** starts[i]: offset in `lower` of label i, for i < labels. */
  readonly starts = new Int32Array(QUERY_LABELS_MAX);
  /** hashes[i] = nameKeyHash(key(i)) (wire/name-key-hash.ts), for i < labels. */
  readonly hashes = new Int32Array(QUERY_LABELS_MAX);
  /** nameKeyHash(key(0)). */
  hash = NAME_HASH_OFFSET;
  private readonly keys: string[] = new Array<string>(QUERY_LABELS_MAX).fill('');
  /** keys[i] belongs to the current name when made[i] === stamp. */
  private readonly made = new Int32Array(QUERY_LABELS_MAX);
  private stamp = 1;

  /** After the parser filled `lower`, `starts` and `hashes`: a new name, no key made yet. */
  reset(labels: number, wireLength: number, hash: number): void {
    this.labels = labels;
    this.wireLength = wireLength;
    this.hash = hash;
    this.stamp = (this.stamp + 1) | 0;
    if (this.stamp === 0) {
      this.made.fill(0);
      this.stamp = 1;
    }
  }

  /** Length of key(i) without making it. */
  keyLength(i: number): number {
    return this.labels === 0 ? 0 : this.wireLength - 1 - this.starts[i]!;
  }

  /** The canonical key of suffix i ('' for the root). */
  key(i: number): string {
    if (this.made[i] === this.stamp) return this.keys[i]!;
    const key =
      i === 0
        ? (this.lower as unknown as Latin1Sliceable).latin1Slice(0, this.wireLength - 1)
        : this.key(0).slice(this.starts[i]!);
    this.keys[i] = key;
    this.made[i] = this.stamp;
    return key;
  }

  /** Takes `key`, equal to key(i) (a zone's own apex string, say), as key(i) for this query. */
  adopt(i: number, key: string): void {
    this.keys[i] = key;
    this.made[i] = this.stamp;
  }

  /** Whether key(i) equals `key`, compared with the bytes when key(i) was not made. */
  equalsKey(i: number, key: string): boolean {
    if (this.made[i] === this.stamp) return this.keys[i] === key;
    const n = this.keyLength(i);
    if (key.length !== n) return false;
    const lower = this.lower;
    const at = this.labels === 0 ? 0 : this.starts[i]!;
    for (let k = 0; k < n; k++) if (lower[at + k] !== key.charCodeAt(k)) return false;
    return true;
  }
}
