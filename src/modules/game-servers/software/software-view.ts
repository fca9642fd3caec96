/** Software records and jobs as the API answers them. */
import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { Job, SoftwareRecord } from './software-repository.ts';

export type SoftwareRecordView = JsonView<
  Pick<
    SoftwareRecord,
    | 'record_uuid'
    | 'display_name'
    | 'kind'
    | 'source_name'
    | 'project_id'
    | 'install_path'
    | 'current_version'
    | 'current_version_name'
    | 'status'
  >
> & {
  /** The build staged for the next start, if any. */
  staged_version: string | null;
  /** Whether a rollback can restore the file replaced at the last start. */
  can_roll_back: boolean;
};

export type JobView = JsonView<
  Pick<
    Job,
    | 'job_id'
    | 'record_uuid'
    | 'action'
    | 'from_version'
    | 'to_version'
    | 'status'
    | 'error'
    | 'created_at'
    | 'finished_at'
  >
>;

export function recordView(r: SoftwareRecord): SoftwareRecordView {
  return {
    record_uuid: r.record_uuid,
    display_name: r.display_name,
    kind: r.kind,
    source_name: r.source_name,
    project_id: r.project_id,
    install_path: r.install_path,
    current_version: r.current_version,
    current_version_name: r.current_version_name,
    status: r.status,
    staged_version: r.staged_version,
    can_roll_back: r.previous_path !== null,
  };
}

export function jobView(j: Job): JobView {
  return {
    job_id: j.job_id,
    record_uuid: j.record_uuid,
    action: j.action,
    from_version: j.from_version,
    to_version: j.to_version,
    status: j.status,
    error: j.error,
    created_at: j.created_at.toISOString(),
    finished_at: j.finished_at?.toISOString() ?? null,
  };
}
