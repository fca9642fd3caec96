import type { Generated } from 'kysely';

/** The staff module's tables as Kysely sees them (migrations/*_staff*.sql). */
export interface StaffMemberRow {
  org_id: number;
  user_id: number;
  /** A console role: `admin`, `billing`, `tier3`, `tier2`, `tier1`. */
  role: string;
  /** `same_login`, `separate`, or null for a console-only teammate. */
  customer_link_mode: string | null;
  customer_id: number | null;
  /** The teammate's display name (team routes). */
  name: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The console's sign-in policy (team/). */
export interface StaffPolicyRow {
  org_id: number;
  require_mfa: boolean;
  require_mfa_since: Date | null;
  updated_at: Date;
}

/** A password or second factor confirmed again inside a staff session (team/). */
export interface StaffStepUpRow {
  session_id: string;
  org_id: number;
  user_id: number;
  at: Date;
}

// Notices and coupons (migrations/202611300640_staff_notices.sql, 202611300641_staff_coupons.sql).
export interface NoticeRow {
  id: Generated<number>;
  org_id: number;
  /** `info`, `maintenance`, `incident`. */
  kind: string;
  title: string;
  body: string;
  /** `all`, `customers`, `staff`. */
  audience: string;
  /** `banner`, `dashboard`, `status_page`. */
  placement: string;
  /** `draft`, `scheduled`, `active`, `resolved`. */
  status: string;
  starts_at: Date | null;
  ends_at: Date | null;
  resolved_at: Date | null;
  created_by: number | null;
  created_at: Date;
  updated_at: Date;
}

export interface NoticeUpdateRow {
  id: Generated<number>;
  notice_id: number;
  body: string;
  state: string | null;
  created_by: number | null;
  created_at: Date;
}

export interface CouponRow {
  id: Generated<number>;
  org_id: number;
  code: string;
  /** The code in lower case: unique per organization. */
  code_key: string;
  description: string;
  /** `percent` or `fixed`. */
  kind: string;
  /** percent: hundredths of a percent; fixed: minor units of `currency`. */
  amount: number;
  currency: string | null;
  /** Product ids, or null for every product. */
  applies_to: number[] | null;
  first_invoice_only: boolean;
  max_redemptions: number | null;
  per_customer_limit: number | null;
  redeemed_count: Generated<number>;
  starts_at: Date | null;
  ends_at: Date | null;
  /** `active`, `disabled`, `expired`. */
  status: string;
  created_at: Date;
  updated_at: Date;
}

export interface CouponRedemptionRow {
  id: Generated<number>;
  coupon_id: number;
  org_id: number;
  customer_id: number;
  service_id: number;
  product_id: number;
  currency: string;
  discount_minor: number;
  created_at: Date;
}

export interface CouponSettingsRow {
  org_id: number;
  enabled: boolean;
  updated_at: Date;
}

export interface StaffTables {
  staff_members: StaffMemberRow;
  staff_policies: StaffPolicyRow;
  staff_step_ups: StaffStepUpRow;
  staff_notices: NoticeRow;
  staff_notice_updates: NoticeUpdateRow;
  staff_coupons: CouponRow;
  staff_coupon_redemptions: CouponRedemptionRow;
  staff_coupon_settings: CouponSettingsRow;
}
