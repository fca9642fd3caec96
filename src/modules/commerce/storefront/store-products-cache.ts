/** How long a cached page is believed at most, should a change elsewhere go unheard. */
const TTL_MS = 30_000;
const MAX_ENTRIES = 2_000;

interface Entry<T> {
  readonly value: T;
  readonly version: number;
  readonly untilMs: number;
}

/**
 * The Store API's product pages, kept in memory per organization until the shop changes
 * (docs/commerce.md, "Store API: the catalogue"): a storefront asks for the same pages far more
 * often than the shop changes, and a page is the dearest read of the Store API (variants, prices
 * and stock built by the database). Every change of the shop but a cart's bumps the organization's
 * version here, and in every other API process through the bus, so the next read builds the page
 * again; an entry is never older than TTL_MS either way.
 */
export class StoreProductsCache<T> {
  private readonly versions = new Map<number, number>();
  private readonly entries = new Map<string, Entry<T>>();

  constructor(private readonly now: () => number) {}

  get(orgId: number, key: string): T | undefined {
    const entry = this.entries.get(`${orgId}|${key}`);
    if (entry === undefined) return undefined;
    if (entry.version !== (this.versions.get(orgId) ?? 0) || entry.untilMs <= this.now()) {
      this.entries.delete(`${orgId}|${key}`);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps `value` if the shop did not change since `version` was read (see versionOf). */
  set(orgId: number, key: string, version: number, value: T): void {
    if (version !== (this.versions.get(orgId) ?? 0)) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(`${orgId}|${key}`, { value, version, untilMs: this.now() + TTL_MS });
  }

  /** The organization's version before a page is read: a change while reading leaves it uncached. */
  versionOf(orgId: number): number {
    return this.versions.get(orgId) ?? 0;
  }

  invalidate(orgId: number): void {
    this.versions.set(orgId, (this.versions.get(orgId) ?? 0) + 1);
  }
}
