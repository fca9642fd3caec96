import { sql } from 'kysely';
import type { Database } from './database.ts';

/** Whether the database answers a trivial query now (readiness checks). */
export async function databaseAnswers<T>(database: Database<T>): Promise<boolean> {
  await sql`select 1`.execute(database.db);
  return true;
}
