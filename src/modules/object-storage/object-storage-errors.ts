import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the object storage module, with its stable code. */
export const storageNotFound = defineError(
  'object_storage.service_not_found',
  404,
  'Storage service not found',
);
export const bucketNotFound = defineError('object_storage.bucket_not_found', 404, 'Bucket not found');
export const keyNotFound = defineError('object_storage.key_not_found', 404, 'Key not found');
export const bucketExists = defineError('object_storage.bucket_exists', 409, 'Bucket already exists');
export const bucketLimitReached = defineError(
  'object_storage.bucket_limit_reached',
  403,
  (max: number) => `Bucket limit reached (${max})`,
);
export const bucketNotEmpty = defineError('object_storage.bucket_not_empty', 409, 'Bucket is not empty');
export const storageNotActive = defineError(
  'object_storage.service_not_active',
  409,
  (status: string) => `Storage service is ${status}`,
);
/** The gateway did not answer, or answered what it should not have: the request may be retried. */
export const gatewayUnavailable = defineError(
  'object_storage.gateway_unavailable',
  503,
  'Object storage gateway is unavailable; try again shortly',
);
export const keyLimitReached = defineError(
  'object_storage.key_limit_reached',
  403,
  (max: number) => `Key limit reached (${max})`,
);
export const defaultKeyKept = defineError(
  'object_storage.default_key_kept',
  409,
  'The default key cannot be revoked',
);
