/**
 * Whether a database error is a unique violation (SQLSTATE 23505), as PostgreSQL and PGlite both
 * report it: two requests racing for one handle or SKU, the loser answered 409 rather than 500.
 */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
