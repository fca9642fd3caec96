import type { CustomDomainRow } from '../gameproxy-tables.ts';
import type { CnameFinding } from './cname-check.ts';

/** How often the background timer looks for due checks. */
export const CHECK_TICK_MS = 60_000;
/** A pending or failed domain is looked at again this soon, until its CNAME is found. */
export const UNVERIFIED_RECHECK_MS = 10 * 60_000;
/** A verified domain is looked at daily. */
export const VERIFIED_RECHECK_MS = 24 * 3600_000;
/** Daily checks in a row without the CNAME after which a verified domain fails (stops routing). */
export const MISSES_BEFORE_FAILED = 3;
/** A check taken by one process is not taken by another for this long (it writes its result sooner). */
export const CHECK_LEASE_MS = 5 * 60_000;
/** Due domains checked in one pass; the rest wait for the next tick. */
export const CHECKS_PER_PASS = 100;

/** What a check changes of a domain. */
export type CheckOutcome = Pick<
  CustomDomainRow,
  'status' | 'checked_at' | 'next_check_at' | 'missed_checks' | 'last_error'
>;

const at = (now: Date, ms: number): Date => new Date(now.getTime() + ms);

/**
 * A domain after a check: found → verified (checked daily); not found → a pending or failed domain
 * stays so (checked every 10 minutes), a verified one counts a miss and fails at the third.
 */
export function afterCheck(
  row: Pick<CustomDomainRow, 'status' | 'missed_checks'>,
  finding: CnameFinding,
  now: Date,
): CheckOutcome {
  if (finding.kind === 'match')
    return {
      status: 'verified',
      checked_at: now,
      next_check_at: at(now, VERIFIED_RECHECK_MS),
      missed_checks: 0,
      last_error: null,
    };
  if (row.status !== 'verified')
    return {
      status: row.status,
      checked_at: now,
      next_check_at: at(now, UNVERIFIED_RECHECK_MS),
      missed_checks: row.missed_checks,
      last_error: finding.message,
    };
  const missed = row.missed_checks + 1;
  const failed = missed >= MISSES_BEFORE_FAILED;
  return {
    status: failed ? 'failed' : 'verified',
    checked_at: now,
    next_check_at: at(now, failed ? UNVERIFIED_RECHECK_MS : VERIFIED_RECHECK_MS),
    missed_checks: missed,
    last_error: failed
      ? `${finding.message} (${MISSES_BEFORE_FAILED} daily checks in a row)`
      : `${finding.message} (${missed} of ${MISSES_BEFORE_FAILED} daily checks before the domain fails)`,
  };
}
