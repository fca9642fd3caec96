/**
 * A 32-bit hash of a name's canonical key (WireName: its lower-cased wire labels without the root
 * byte, one character per byte): each label (length byte and letters) is hashed on its own, FNV-1a,
 * and the label hashes are combined from the last label to the first, so that a query name's pass
 * gives the hash of every suffix (query-parser.ts does this inline, as it lower-cases the name); a
 * zone's names and apexes are hashed from their key strings. It lets a lookup rule out
 * a name the zone does not have (zone/node-table.ts), and find a served apex (zone-store.ts),
 * without hashing the query's fresh key strings into a Map: a flood of unique names then costs no
 * Map probe.
 */
export const NAME_HASH_OFFSET = 0x811c9dc5 | 0;
export const NAME_HASH_PRIME = 0x01000193;

const LABEL_HASHES = new Int32Array(128);

export function nameKeyHash(key: string): number {
  let labels = 0;
  for (let p = 0; p < key.length;) {
    const len = key.charCodeAt(p);
    let lh = Math.imul(NAME_HASH_OFFSET ^ len, NAME_HASH_PRIME);
    for (let i = 1; i <= len; i++) lh = Math.imul(lh ^ key.charCodeAt(p + i), NAME_HASH_PRIME);
    LABEL_HASHES[labels++] = lh;
    p += len + 1;
  }
  let h = NAME_HASH_OFFSET;
  for (let i = labels - 1; i >= 0; i--) h = Math.imul(h ^ LABEL_HASHES[i]!, NAME_HASH_PRIME);
  return h;
}
