/**
 * The services list's `resource_type` (docs/catalogue-and-services.md, "Services"): its words and
 * aliases, and the word each product module's services carry. Modules the filter has no word for
 * (DNS hosting, object storage) still carry one of their own, never matched by the filter.
 */
const ALIASES: Readonly<Record<string, string>> = {
  vps: 'vps',
  cloud_compute: 'vps',
  container: 'container',
  ip: 'ip',
  floating_ip: 'ip',
  mail: 'mail',
  smtp_relay: 'smtp_relay',
};

/** The words the filter accepts, as its 422 lists them. */
export const RESOURCE_TYPE_WORDS: readonly string[] = Object.keys(ALIASES);

/** The stored resource type a filter word means; null for a word outside the list. */
export function resourceTypeOfWord(word: string): string | null {
  return ALIASES[word] ?? null;
}

const OF_MODULE: Readonly<Record<string, string>> = {
  vps: 'vps',
  container: 'container',
  game_server: 'container',
  smtp_relay: 'smtp_relay',
  dns_hosting: 'dns',
  object_storage: 'storage',
};

/** The resource type of a product module's services. */
export function resourceTypeOfModule(module: string): string {
  return OF_MODULE[module] ?? module;
}
