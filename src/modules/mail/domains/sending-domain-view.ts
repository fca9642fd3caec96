import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { DomainRow } from '../mail-tables.ts';
import { domainRecords, type DomainRecord, type RecordPurpose } from './domain-records.ts';

/** Which of a domain's records its last check found, and why SPF was not (RFC 7208 §4.5). */
export type CheckedRecords = Partial<Record<RecordPurpose, boolean>> & { spf_reason?: string | null };

/** Why a checked record was not found as needed (null: found, or not checked yet). */
function reasonOf(purpose: RecordPurpose, checked: CheckedRecords | null): string | null {
  if (checked === null || checked[purpose] === true) return null;
  if (purpose === 'spf') return checked.spf_reason ?? 'No SPF record';
  return purpose === 'dkim' ? 'DKIM key not found' : 'Return-path name not found';
}

/**
 * A sending domain as the API shows it: never its keys, with its selector, whether its records
 * were published here, and each record it needs with whether the last check found it.
 */
export type SendingDomainView = JsonView<
  Omit<
    DomainRow,
    | 'id'
    | 'service_id'
    | 'selector'
    | 'dkim_private_key'
    | 'dkim_public_key'
    | 'zone_id'
    | 'check_result'
    | 'spf_part'
  >
> & {
  dkim_selector: string;
  /** The records were published in a zone hosted here (as managed records). */
  hosted_here: boolean;
  /** `reason`: why the last check did not find the record as needed (null: it did, or none yet). */
  records: (DomainRecord & { verified: boolean; reason: string | null })[];
};

export function sendingDomainView(
  row: DomainRow,
  settings: { readonly spfInclude: string; readonly bounceDomain: string },
): SendingDomainView {
  const checked = (
    typeof row.check_result === 'string' ? JSON.parse(row.check_result) : row.check_result
  ) as CheckedRecords | null;
  const records = domainRecords(row.domain, row.selector, row.dkim_public_key, settings);
  return {
    domain: row.domain,
    status: row.status,
    dkim_selector: row.selector,
    hosted_here: row.zone_id !== null,
    records: records.map((r) => ({
      ...r,
      verified: checked?.[r.purpose] === true,
      reason: reasonOf(r.purpose, checked ?? null),
    })),
    verified_at: row.verified_at === null ? null : new Date(row.verified_at).toISOString(),
    checked_at: row.checked_at === null ? null : new Date(row.checked_at).toISOString(),
    created_at: new Date(row.created_at).toISOString(),
  };
}
