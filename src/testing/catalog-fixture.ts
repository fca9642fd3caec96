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
