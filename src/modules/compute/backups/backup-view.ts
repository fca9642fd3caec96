/** A backup as the API answers it. */
import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { Backup } from './backups-repository.ts';

export type BackupView = JsonView<
  Pick<Backup, 'id' | 'note' | 'mode' | 'compress' | 'size_bytes' | 'created_at' | 'status'>
>;

export function backupView(b: Backup): BackupView {
  return {
    id: b.id,
    note: b.note,
    mode: b.mode,
    compress: b.compress,
    size_bytes: b.size_bytes,
    created_at: b.created_at.toISOString(),
    status: b.status,
  };
}
