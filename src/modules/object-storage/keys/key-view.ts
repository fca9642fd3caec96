import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { StorageKey } from '../object-storage-tables.ts';

/**
 * A key as the API shows it: never its secret (only the creation answer carries `secret_key`),
 * and the name of the bucket it is scoped to (null: every bucket of the service).
 */
export type KeyView = JsonView<Pick<StorageKey, 'id' | 'label' | 'access_key' | 'access' | 'created_at'>> & {
  readonly bucket: string | null;
};

export const keyView = (key: StorageKey, bucketName: string | null): KeyView => ({
  id: key.id,
  label: key.label,
  access_key: key.access_key,
  bucket: bucketName,
  access: key.access,
  created_at: key.created_at.toISOString(),
});
