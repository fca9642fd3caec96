/**
 * Where modules meet when the one that offers comes after the one that uses: the composition root
 * makes a registry and passes it to the factory of the module that reads it and to the factories
 * of the modules that add to it (DNS hosting and mail add service provisioners; the services
 * registry and the catalogue read them). Nothing is set on a module after it is made, and what a module takes and
 * gives is written in its factory's dependencies.
 *
 * Entries are added while the modules are made; the first read closes the registry, so an entry
 * added late (after requests are served) fails loudly instead of being missed by some callers.
 */
export class Registry<T> {
  private readonly entries: T[] = [];
  private closed = false;

  constructor(readonly name: string) {}

  add(entry: T): void {
    if (this.closed)
      throw new Error(`the ${this.name} registry is read already: add entries while modules are made`);
    this.entries.push(entry);
  }

  /** Every entry, in the order they were added. */
  all(): readonly T[] {
    this.closed = true;
    return this.entries;
  }

  /** The one entry of a registry that takes at most one (null: none was added). */
  one(): T | null {
    const all = this.all();
    if (all.length > 1)
      throw new Error(`the ${this.name} registry holds ${all.length} entries; it takes one`);
    return all[0] ?? null;
  }
}
