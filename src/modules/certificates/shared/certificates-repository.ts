import { sql, type Kysely, type Transaction, type Updateable } from 'kysely';
import type { Certificate, CertificateRow, CertificatesTables, JobStep } from '../certificates-tables.ts';

type Db = Kysely<CertificatesTables> | Transaction<CertificatesTables>;
export type CertificatePatch = Updateable<CertificateRow>;
export type NewCertificate = Omit<CertificateRow, 'id'>;

/** A row as the database answers it (bigint ids may come back as strings). */
type ReadRow = Omit<CertificateRow, 'id'> & { id: number | string };

const read = (row: ReadRow | undefined): Certificate | null =>
  row === undefined ? null : { ...row, id: Number(row.id), user_id: Number(row.user_id) };

/**
 * The jsonb columns, written as JSON text: the pg driver would send a JavaScript array as a
 * PostgreSQL array literal, which jsonb refuses.
 */
const JSON_COLUMNS = ['san_domains', 'failover_from', 'challenges'] as const;

function toDb<T extends CertificatePatch>(row: T): T {
  const out: Record<string, unknown> = { ...row };
  for (const c of JSON_COLUMNS) if (out[c] !== undefined && out[c] !== null) out[c] = JSON.stringify(out[c]);
  return out as T;
}

/** Steps during which a dns-01 TXT value must stay published. */
export const PUBLISHED_STEPS: readonly JobStep[] = [
  'await_user',
  'publish',
  'propagate',
  'validate',
  'await_order',
];

/**
 * The certificates table, the issuance log and the engine's claims. Claims use FOR UPDATE SKIP
 * LOCKED and a lease, so several API processes share the work and a dead one's jobs are taken
 * again after its lease.
 */
export class CertificatesRepository {
  constructor(private readonly db: Db) {}

  async insert(row: NewCertificate): Promise<Certificate> {
    return read(
      await this.db
        .insertInto('certificates_certs')
        .values(toDb(row))
        .returningAll()
        .executeTakeFirstOrThrow(),
    )!;
  }

  async find(id: number): Promise<Certificate | null> {
    return read(
      await this.db.selectFrom('certificates_certs').selectAll().where('id', '=', id).executeTakeFirst(),
    );
  }

  /** The caller's newest certificate for exactly `domain`, revoked ones left out. */
  async latestOf(userId: number, domain: string): Promise<Certificate | null> {
    return read(
      await this.db
        .selectFrom('certificates_certs')
        .selectAll()
        .where('user_id', '=', userId)
        .where('domain', '=', domain)
        .where('status', '!=', 'revoked')
        .orderBy('id', 'desc')
        .executeTakeFirst(),
    );
  }

  /** The caller's certificates, newest first. */
  async listOf(userId: number, limit: number, offset: number): Promise<Certificate[]> {
    const rows = await this.db
      .selectFrom('certificates_certs')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => read(r)!);
  }

  async countOf(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('certificates_certs')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The caller's issued certificates, unexpired at `now`, for any of `domains`. */
  async validFor(userId: number, domains: readonly string[], now: Date): Promise<Certificate[]> {
    if (domains.length === 0) return [];
    const rows = await this.db
      .selectFrom('certificates_certs')
      .selectAll()
      .where('user_id', '=', userId)
      .where('domain', 'in', domains)
      .where('status', 'in', ['issued', 'renewing'])
      .where('certificate_pem', 'is not', null)
      .where('expires_at', '>', now)
      .orderBy('issued_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map((r) => read(r)!);
  }

  async update(id: number, patch: CertificatePatch): Promise<Certificate | null> {
    return read(
      await this.db
        .updateTable('certificates_certs')
        .set(toDb(patch))
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    );
  }

  /** Updates a row this process still holds the claim on; null when the claim was lost. */
  async updateClaimed(id: number, claim: string, patch: CertificatePatch): Promise<Certificate | null> {
    return read(
      await this.db
        .updateTable('certificates_certs')
        .set(toDb(patch))
        .where('id', '=', id)
        .where('claimed_by', '=', claim)
        .returningAll()
        .executeTakeFirst(),
    );
  }

  /** Takes up to `limit` due jobs for `claim` until `leaseUntil`. */
  async claimDue(now: Date, leaseUntil: Date, claim: string, limit: number): Promise<Certificate[]> {
    const rows = await this.db
      .updateTable('certificates_certs')
      .set({ claimed_by: claim, lease_until: leaseUntil })
      .where(
        'id',
        'in',
        this.db
          .selectFrom('certificates_certs')
          .select('id')
          .where('job_step', 'is not', null)
          .where('job_step', '!=', 'await_user')
          .where('next_attempt_at', '<=', now)
          .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
          .orderBy('next_attempt_at')
          .limit(limit)
          .forUpdate()
          .skipLocked(),
      )
      .returningAll()
      .execute();
    return rows.map((r) => read(r)!);
  }

  /** Takes one job for `claim` if it is due and no live claim holds it. */
  async claimOne(id: number, now: Date, leaseUntil: Date, claim: string): Promise<Certificate | null> {
    return read(
      await this.db
        .updateTable('certificates_certs')
        .set({ claimed_by: claim, lease_until: leaseUntil })
        .where('id', '=', id)
        .where('job_step', 'is not', null)
        .where('job_step', '!=', 'await_user')
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .returningAll()
        .executeTakeFirst(),
    );
  }

  /** Gives back the claims of a stopping process, so another takes its jobs at once. */
  async releaseClaims(claim: string): Promise<void> {
    await this.db
      .updateTable('certificates_certs')
      .set({ claimed_by: null, lease_until: null })
      .where('claimed_by', '=', claim)
      .execute();
  }

  /** Certificates whose dns-01 values at `_acme-challenge.<identifier>` are to stay published. */
  async publishedAt(identifier: string): Promise<Certificate[]> {
    const rows = await this.db
      .selectFrom('certificates_certs')
      .selectAll()
      .where('challenge_method', '=', 'dns_automatic')
      .where('job_step', 'in', PUBLISHED_STEPS)
      .where(sql<boolean>`challenges @> ${JSON.stringify([{ identifier, type: 'dns-01' }])}::jsonb`)
      .execute();
    return rows.map((r) => read(r)!);
  }

  /** The key authorization served for an http-01 token, while its order is in progress. */
  async keyAuthorization(token: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('certificates_certs')
      .select('challenges')
      .where('job_step', 'is not', null)
      .where(sql<boolean>`challenges @> ${JSON.stringify([{ token, type: 'http-01' }])}::jsonb`)
      .executeTakeFirst();
    return row?.challenges?.find((c) => c.token === token)?.value ?? null;
  }

  /** Issued certificates to renew: expiring before `threshold`, with no job running. */
  async dueForRenewal(threshold: Date, now: Date): Promise<Certificate[]> {
    const rows = await this.db
      .selectFrom('certificates_certs')
      .selectAll()
      .where('status', '=', 'issued')
      .where('job_step', 'is', null)
      .where('expires_at', '<=', threshold)
      .where('expires_at', '>', now)
      .execute();
    return rows.map((r) => read(r)!);
  }

  /** Marks certificates past their end `expired` and stops their jobs; answers them. */
  async expire(now: Date): Promise<Certificate[]> {
    const rows = await this.db
      .updateTable('certificates_certs')
      .set({
        status: 'expired',
        job_step: null,
        next_attempt_at: null,
        claimed_by: null,
        lease_until: null,
        updated_at: now,
      })
      .where('status', 'in', ['issued', 'renewing'])
      .where('expires_at', '<=', now)
      .returningAll()
      .execute();
    return rows.map((r) => read(r)!);
  }

  async recordIssuance(certificateId: number, registeredDomain: string, at: Date): Promise<void> {
    await this.db
      .insertInto('certificates_issuances')
      .values({ certificate_id: certificateId, registered_domain: registeredDomain, issued_at: at })
      .execute();
  }

  /** Issuances for `registeredDomain` since `since`, and the oldest of them. */
  async issuancesSince(
    registeredDomain: string,
    since: Date,
  ): Promise<{ count: number; oldest: Date | null }> {
    const row = await this.db
      .selectFrom('certificates_issuances')
      .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('issued_at').as('oldest')])
      .where('registered_domain', '=', registeredDomain)
      .where('issued_at', '>', since)
      .executeTakeFirstOrThrow();
    return { count: Number(row.n), oldest: row.oldest === null ? null : new Date(row.oldest as Date) };
  }
}
