import { majorUnits } from '../money/money-amounts.ts';
import type { DisputeRow } from './disputes-repository.ts';

/** A dispute as the Commerce API shows it; `amount` in major units. */
export interface DisputeView {
  id: number;
  order_id: number;
  payment_id: number;
  provider: string;
  provider_dispute_id: string;
  amount: number;
  currency_code: string;
  reason: string;
  status: string;
  evidence: Record<string, string>;
  evidence_due_by: string | null;
  submitted_at: string | null;
  closed_at: string | null;
  created_at: string;
  updated_at: string;
}

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
