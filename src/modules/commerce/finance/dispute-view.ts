import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import { majorUnits } from '../money/money-amounts.ts';
import type { DisputeRow } from './disputes-repository.ts';

/** A dispute as the Commerce API shows it; `amount` in major units. */
export type DisputeView = JsonView<Omit<DisputeRow, 'amount_minor' | 'org_id'>> & { amount: number };

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

export function disputeView(d: DisputeRow): DisputeView {
  return {
    id: d.id,
    order_id: d.order_id,
    payment_id: d.payment_id,
    provider: d.provider,
    provider_dispute_id: d.provider_dispute_id,
    amount: majorUnits(d.amount_minor, d.currency_code),
    currency_code: d.currency_code,
    reason: d.reason,
    status: d.status,
    evidence: d.evidence,
    evidence_due_by: iso(d.evidence_due_by),
    submitted_at: iso(d.submitted_at),
    closed_at: iso(d.closed_at),
    created_at: d.created_at.toISOString(),
    updated_at: d.updated_at.toISOString(),
  };
}

/** The event data of a dispute (no evidence: it may name the shopper). */
export function disputeEventData(d: DisputeRow): Record<string, unknown> {
  return {
    id: d.id,
    order_id: d.order_id,
    payment_id: d.payment_id,
    amount: Number(d.amount_minor),
    currency_code: d.currency_code,
    reason: d.reason,
    status: d.status,
  };
}
