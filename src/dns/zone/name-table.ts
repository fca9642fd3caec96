import type { ByteArena } from '../wire/byte-arena.ts';
import { WireName, sameSpelling, wireSize } from '../wire/wire-name.ts';

const ROOT_KEYS: readonly string[] = [];

/**
 * The names of one snapshot being built, each stored once: a name met again (as owner, RDATA
 * target, ancestor) with the same letter case is the same WireName object; its wire is carved from
 * the zone's arena; and its `keys` reuse its parent's key strings, so a name adds one key string
 * and one small array, not a copy of every suffix. Letter case is kept as given (answers copy it),
 * so a differently-cased spelling is a name of its own that shares the keys.
 */
export class NameTable {
  /** The first spelling met of each canonical key. */
  private readonly byKey = new Map<string, WireName>();

  constructor(private readonly arena: ByteArena) {}

  /** The shared form of `name`. */
  intern(name: WireName): WireName {
    const key = name.keys[0] ?? '';
    const known = this.byKey.get(key);
    if (known !== undefined && sameSpelling(known, name)) return known;
    const size = wireSize(name);
    const at = this.arena.reserve(size);
    const bytes = this.arena.chunk;
    for (let i = 0; i < size; i++) bytes[at + i] = name.bytes[name.at + i]!;
    if (known !== undefined) return new WireName(known.keys, bytes, at);
    return this.add(key, bytes, at, name.keys);
  }

  /** The shared name with canonical key `key`, if one was met. */
  get(key: string): WireName | undefined {
    return this.byKey.get(key);
  }

  /** Registers a name new to the table (its wire at `at` in the arena); its ancestors too, sharing those bytes. */
  private add(key: string, bytes: Uint8Array, at: number, keys: readonly string[]): WireName {
    let shared = ROOT_KEYS;
    if (keys.length > 0) {
      const parentKey = keys[1] ?? '';
      const parent =
        this.byKey.get(parentKey) ??
        this.add(parentKey, bytes, at + key.length - parentKey.length, keys.slice(1));
      shared = [key].concat(parent.keys); // concat: exact size, no spare capacity
    }
    const name = new WireName(shared, bytes, at);
    this.byKey.set(key, name);
    return name;
  }
}
