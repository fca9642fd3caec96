import type { Generated } from 'kysely';

/**
 * The money side's tables (migrations/202611300510_commerce_finance.sql). Amounts are integer minor
 * units (`bigint`, read as text by the PostgreSQL driver).
 */
export interface CommerceLedgerTransactionRow {
  id: Generated<number>;
  org_id: number;
  type: string;
  currency_code: string;
  order_id: number | null;
  payment_id: number | null;
  refund_id: number | null;
  dispute_id: number | null;
  payout_id: number | null;
  created_at: Date;
}

export interface CommerceLedgerEntryRow {
  id: Generated<number>;
  transaction_id: number;
  org_id: number;
  account: string;
  currency_code: string;
  amount_minor: string | number;
  available_on: Date | null;
}

export interface CommerceDisputeRow {
  id: Generated<number>;
  org_id: number;
  order_id: number;
  payment_id: number;
  provider: string;
  provider_dispute_id: string;
  amount_minor: string | number;
  currency_code: string;
  reason: string;
  status: string;
  evidence: Record<string, string>;
  evidence_due_by: Date | null;
  submitted_at: Date | null;
  closed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface CommerceProviderEventRow {
  provider: string;
  event_id: string;
  received_at: Date;
}

export interface CommercePayoutRow {
  id: Generated<number>;
  org_id: number;
  amount_minor: string | number;
  currency_code: string;
  status: string;
  period_start: Date;
  period_end: Date;
  requested_by: number;
  created_at: Date;
}

export interface CommerceBalanceLockRow {
  org_id: number;
  currency_code: string;
}

export interface CommerceMerchantProfileRow {
  org_id: number;
  profile: Record<string, unknown>;
  updated_by: number;
  updated_at: Date;
}

export interface FinanceTables {
  commerce_ledger_transactions: CommerceLedgerTransactionRow;
  commerce_ledger_entries: CommerceLedgerEntryRow;
  commerce_disputes: CommerceDisputeRow;
  commerce_provider_events: CommerceProviderEventRow;
  commerce_payouts: CommercePayoutRow;
  commerce_balance_locks: CommerceBalanceLockRow;
  commerce_merchant_profiles: CommerceMerchantProfileRow;
}
