import type { Kysely } from 'kysely';

/**
 * A Kysely instance plus what Kysely itself does not offer on both backends: running a whole SQL
 * script (migrations) and closing the underlying connection. PGlite and PostgreSQL serve the same
 * SQL, so modules never ask which one is behind.
 */
export interface Database<Schema> {
  readonly db: Kysely<Schema>;
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs `fn` on one dedicated connection (session state such as advisory locks holds across its
   * calls); `run` executes a multi-statement SQL script and answers the rows of the last statement.
   */
  withSession<T>(fn: (run: (script: string) => Promise<Record<string, unknown>[]>) => Promise<T>): Promise<T>;
  /** The embedded database only: a copy of its data directory, to start another from. */
  dump?(): Promise<Blob>;
  close(): Promise<void>;
}
