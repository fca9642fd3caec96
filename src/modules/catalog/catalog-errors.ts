import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the catalogue module, with its stable code. */
export const productNotFound = defineError('catalog.product_not_found', 404, 'Product not found');
export const specializationNotFound = defineError(
  'catalog.specialization_not_found',
  404,
  'Specialization not found',
);
