import type { Registry } from '../../../kernel/module/registry.ts';
import type { LiveProduct, LiveProductSource } from '../orgs-interfaces.ts';

/** An organization's live products, from every module that registered a source. */
export async function liveProductsOf(
  sources: Registry<LiveProductSource>,
  orgId: number,
): Promise<LiveProduct[]> {
  return (await Promise.all(sources.all().map((source) => source(orgId)))).flat();
}
