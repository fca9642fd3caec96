/**
 * A 32-bit hash of a name's canonical key (WireName: its lower-cased wire labels without the root
 * byte, one character per byte), computed once from the query's bytes while the parser lower-cases
 * them (query-parser.ts repeats this loop inline) and from the key string for a zone's names. It
 * lets a lookup rule out a name the zone does not have without hashing the key string into a Map
 * (zone/node-table.ts): a flood of unique names then costs no Map probe.
 */
export const NAME_HASH_OFFSET = 0x811c9dc5 | 0;
export const NAME_HASH_PRIME = 0x01000193;

export function nameKeyHash(key: string): number {
  let h = NAME_HASH_OFFSET;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), NAME_HASH_PRIME);
  return h;
}
