/**
 * A 32-bit hash of a name's canonical key (WireName: its lower-cased wire labels without the root
 * byte, one character per byte), taken from the key's last byte to its first, so that one backward
 * pass over a query name gives the hash of every suffix (query-parser.ts repeats this loop
 * inline); a zone's names and apexes are hashed from their key strings. It lets a lookup rule out
 * a name the zone does not have (zone/node-table.ts), and find a served apex (zone-store.ts),
 * without hashing the query's fresh key strings into a Map: a flood of unique names then costs no
 * Map probe.
 */
export const NAME_HASH_OFFSET = 0x811c9dc5 | 0;
export const NAME_HASH_PRIME = 0x01000193;

export function nameKeyHash(key: string): number {
  let h = NAME_HASH_OFFSET;
  for (let i = key.length - 1; i >= 0; i--) h = Math.imul(h ^ key.charCodeAt(i), NAME_HASH_PRIME);
  return h;
}
