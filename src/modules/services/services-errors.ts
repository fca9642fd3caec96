import { BareBodyError } from '../../kernel/errors/app-error.ts';
import { defineError } from '../../kernel/errors/error-registry.ts';
import { RESOURCE_TYPE_WORDS } from './service-resource-types.ts';

/** Every error of the services module, with its stable code. */
export const serviceNotFound = defineError('services.service_not_found', 404, 'Service not found');
export const productNotFound = defineError('services.product_not_found', 404, 'Product not found');
export const serviceOrgNotFound = defineError('services.org_not_found', 404, 'Organization not found');
export const paymentRequired = defineError(
  'services.payment_required',
  402,
  'Payment required: this plan has a price',
);
export const notOrderable = defineError(
  'services.not_orderable',
  409,
  (reason: string) => `Product cannot be ordered now: ${reason}`,
);
export const serviceNotInState = defineError(
  'services.wrong_state',
  409,
  (state: string) => `Service is not ${state}`,
);
export const alreadyCancelled = defineError(
  'services.already_cancelled',
  409,
  'Service is already cancelled',
);

/** The services list's `resource_type` outside its words (docs/catalogue-and-services.md, "Errors"). */
export const invalidResourceType = (): BareBodyError =>
  new BareBodyError(
    422,
    { error: 'invalid_resource_type', allowed: [...RESOURCE_TYPE_WORDS] },
    'services.invalid_resource_type',
  );
