/** The staff module's tables as Kysely sees them (migrations/*_staff*.sql). */
export interface StaffMemberRow {
  org_id: number;
  user_id: number;
  /** A console role: `admin`, `billing`, `tier3`, `tier2`, `tier1`. */
  role: string;
  /** `same_login`, `separate`, or null for a console-only teammate. */
  customer_link_mode: string | null;
  customer_id: number | null;
  created_at: Date;
  updated_at: Date;
}

export interface StaffTables {
  staff_members: StaffMemberRow;
}
