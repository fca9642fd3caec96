import { defineBudget } from '../../../kernel/limits/budget.ts';

/**
 * `POST /orgs/{org_slug}/vps/{uuid}/backups`: 8 in 5 minutes per instance; counted by the service
 * once the caller may back the instance up and the plan allows another backup.
 */
export const vpsBackupBudget = defineBudget({
  action: 'vps.backup',
  count: 8,
  windowS: 300,
  scope: 'target',
  countedBy: 'handler',
});

/** `POST /orgs/{org_slug}/vps/{uuid}/backups/{backup_id}/restore`: 8 in 5 minutes per instance (as above). */
export const vpsBackupRestoreBudget = defineBudget({
  action: 'vps.backup_restore',
  count: 8,
  windowS: 300,
  scope: 'target',
  countedBy: 'handler',
});
