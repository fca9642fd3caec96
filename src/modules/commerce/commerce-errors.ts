import { defineError } from '../../kernel/errors/error-registry.ts';

/**
 * The errors the Commerce administration answers beyond the gate's (keys module: no key, a scope
 * the key lacks, another organization). Another organization's object is never named: it is the
 * same 404 as one that does not exist.
 */
export const salesChannelNotFound = defineError(
  'commerce.sales_channel_not_found',
  404,
  'Sales channel not found',
);
export const publishableKeyNotFound = defineError(
  'commerce.publishable_key_not_found',
  404,
  'Publishable key not found',
);
export const regionNotFound = defineError('commerce.region_not_found', 404, 'Region not found');
export const productNotFound = defineError('commerce.product_not_found', 404, 'Product not found');
export const variantNotFound = defineError('commerce.variant_not_found', 404, 'Variant not found');
export const collectionNotFound = defineError('commerce.collection_not_found', 404, 'Collection not found');
export const categoryNotFound = defineError('commerce.category_not_found', 404, 'Category not found');
export const shippingProfileNotFound = defineError(
  'commerce.shipping_profile_not_found',
  404,
  'Shipping profile not found',
);
export const shippingOptionNotFound = defineError(
  'commerce.shipping_option_not_found',
  404,
  'Shipping option not found',
);
export const stockLocationNotFound = defineError(
  'commerce.stock_location_not_found',
  404,
  'Stock location not found',
);
export const orderNotFound = defineError('commerce.order_not_found', 404, 'Order not found');

export const handleTaken = defineError(
  'commerce.handle_taken',
  409,
  (what: string, handle: string) => `A ${what} with handle "${handle}" already exists`,
);
export const skuTaken = defineError(
  'commerce.sku_taken',
  409,
  (sku: string) => `A variant with SKU "${sku}" already exists`,
);
export const countryTaken = defineError(
  'commerce.country_taken',
  409,
  (country: string) => `Country ${country} already belongs to another region`,
);
export const stillInUse = defineError(
  'commerce.in_use',
  409,
  (what: string, by: string) => `The ${what} is still used by ${by}`,
);
export const belowReserved = defineError(
  'commerce.below_reserved',
  409,
  (sku: string) => `Stock of ${sku} cannot go below its reserved quantity`,
);
export const alreadyTaken = defineError(
  'commerce.already_taken',
  409,
  'A handle or SKU given was taken meanwhile by another request',
);
