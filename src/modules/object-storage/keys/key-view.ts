import type { KeyAccess, StorageKey } from '../object-storage-tables.ts';

/** A key as the API shows it: never its secret (only the creation answer carries `secret_key`). */
export interface KeyView {
  readonly id: number;
  readonly label: string;
  readonly access_key: string;
  /** The bucket's name the key is scoped to, or null: every bucket of the service. */
  readonly bucket: string | null;
  readonly access: KeyAccess;
  readonly created_at: string;
}

export const keyView = (key: StorageKey, bucketName: string | null): KeyView => ({
  id: key.id,
  label: key.label,
  access_key: key.access_key,
  bucket: bucketName,
  access: key.access,
  created_at: key.created_at.toISOString(),
});
