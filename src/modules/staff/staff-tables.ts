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

export interface StaffTables {
  staff_members: StaffMemberRow;
  staff_policies: StaffPolicyRow;
  staff_step_ups: StaffStepUpRow;
}
