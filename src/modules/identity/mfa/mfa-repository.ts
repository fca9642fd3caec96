import type { Kysely, Transaction } from 'kysely';
import type { IdentityTables, MfaChallengeRow, MfaRow } from '../identity-tables.ts';

type Db = Kysely<IdentityTables> | Transaction<IdentityTables>;

/** Second factors, recovery codes (digests) and pending second-factor sign-ins (digests). */
export class MfaRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<IdentityTables>): MfaRepository {
    return new MfaRepository(trx);
  }

  async find(userId: number, lock = false): Promise<MfaRow | null> {
    let q = this.db.selectFrom('identity_mfa').selectAll().where('user_id', '=', userId);
    if (lock) q = q.forUpdate();
    return (await q.executeTakeFirst()) ?? null;
  }

  async activeAmong(userIds: readonly number[]): Promise<number[]> {
    if (userIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('identity_mfa')
      .select('user_id')
      .where('user_id', 'in', userIds)
      .where('enabled_at', 'is not', null)
      .execute();
    return rows.map((r) => Number(r.user_id));
  }

  /** Starts (or restarts) enrolment with a new sealed secret, not yet active. */
  async putPending(userId: number, secret: Uint8Array, now: Date): Promise<void> {
    await this.db
      .insertInto('identity_mfa')
      .values({ user_id: userId, secret, enabled_at: null, last_step: null, created_at: now } as never)
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({ secret, enabled_at: null, last_step: null, created_at: now }),
      )
      .execute();
  }

  async activate(userId: number, step: number, now: Date): Promise<void> {
    await this.db
      .updateTable('identity_mfa')
      .set({ enabled_at: now, last_step: step })
      .where('user_id', '=', userId)
      .execute();
  }

  async setLastStep(userId: number, step: number): Promise<void> {
    await this.db
      .updateTable('identity_mfa')
      .set({ last_step: step })
      .where('user_id', '=', userId)
      .execute();
  }

  async remove(userId: number): Promise<void> {
    await this.db.deleteFrom('identity_recovery_codes').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('identity_mfa').where('user_id', '=', userId).execute();
  }

  async replaceRecoveryCodes(userId: number, hashes: readonly string[], now: Date): Promise<void> {
    await this.db.deleteFrom('identity_recovery_codes').where('user_id', '=', userId).execute();
    await this.db
      .insertInto('identity_recovery_codes')
      .values(
        hashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null, created_at: now })) as never,
      )
      .execute();
  }

  /** Uses the recovery code once: true when it was one of the user's unused codes. */
  async useRecoveryCode(userId: number, hash: string, now: Date): Promise<boolean> {
    const row = await this.db
      .updateTable('identity_recovery_codes')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('code_hash', '=', hash)
      .where('used_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async insertChallenge(row: Omit<MfaChallengeRow, 'used_at'>): Promise<void> {
    await this.db
      .insertInto('identity_mfa_challenges')
      .values({ ...row, used_at: null })
      .execute();
  }

  async findChallenge(tokenHash: string, now: Date): Promise<MfaChallengeRow | null> {
    const row = await this.db
      .selectFrom('identity_mfa_challenges')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row ?? null;
  }

  async useChallenge(tokenHash: string, now: Date): Promise<boolean> {
    const row = await this.db
      .updateTable('identity_mfa_challenges')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .returning('token_hash')
      .executeTakeFirst();
    return row !== undefined;
  }
}
