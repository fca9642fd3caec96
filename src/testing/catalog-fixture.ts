import { readFileSync } from 'node:fs';

/**
 * The shipped products file (catalog/products.json) with one more price on a product, as an
 * operator would write it for `npm run catalog -- import`: the way a test gives a provisioned
 * product (DNS hosting, mail relay) an hourly plan, which the shipped catalogue offers on VPS only.
 */
export function productsWithPricing(
  productId: number,
  pricing: { id: number; billing_cycle: string; price: string; name?: string },
): string {
  const file = JSON.parse(readFileSync(new URL('../../catalog/products.json', import.meta.url), 'utf8'));
  const product = file.products.find((p: { id: number }) => p.id === productId);
  if (product === undefined) throw new Error(`no product ${productId} in catalog/products.json`);
  product.pricing.push({
    id: pricing.id,
    name: pricing.name ?? pricing.billing_cycle,
    billing_cycle: pricing.billing_cycle,
    price: pricing.price,
    setup_fee: '0.00',
    currency: 'EUR',
    is_active: true,
    sort_order: product.pricing.length,
    metadata: null,
  });
  return JSON.stringify(file);
}

/**
 * The shipped products file with one more product: a copy of `baseId` under a new id, slug and
 * price id, its metadata overridden — the way a test orders a plan with limits the shipped
 * catalogue has not (a storage quota of a few hundred KiB, days of grace).
 */
export function productsWithCopy(
  baseId: number,
  copy: { id: number; slug: string; pricingId: number; metadata: Record<string, unknown> },
): string {
  const file = JSON.parse(readFileSync(new URL('../../catalog/products.json', import.meta.url), 'utf8'));
  const base = file.products.find((p: { id: number }) => p.id === baseId);
  if (base === undefined) throw new Error(`no product ${baseId} in catalog/products.json`);
  file.products.push({
    ...base,
    id: copy.id,
    slug: copy.slug,
    name: `${base.name} (${copy.slug})`,
    metadata: { ...base.metadata, ...copy.metadata },
    pricing: base.pricing.slice(0, 1).map((p: Record<string, unknown>) => ({ ...p, id: copy.pricingId })),
    config_options: [],
  });
  return JSON.stringify(file);
}
