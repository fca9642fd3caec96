/** The tags module's table as Kysely sees it (migrations/*_tags.sql). */
export interface TagRow {
  source_type: string;
  source_id: number;
  tag: string;
  /** The tagged resource's holder, copied in when tagged. */
  user_id: number;
  org_id: number | null;
  created_at: Date;
}

export interface TagsTables {
  tags: TagRow;
}
