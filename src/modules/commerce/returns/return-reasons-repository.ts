import type { Kysely, Selectable } from 'kysely';
import type { CommerceReturnReasonRow, CommerceTables } from '../commerce-tables.ts';

export type ReturnReason = Selectable<CommerceReturnReasonRow>;
export type ReturnReasonFields = Pick<CommerceReturnReasonRow, 'value' | 'label' | 'description'>;

/** The shop's return reasons. */
export class ReturnReasonsRepository {
  constructor(private readonly db: Kysely<CommerceTables>) {}

  async list(orgId: number): Promise<ReturnReason[]> {
    return this.db
      .selectFrom('commerce_return_reasons')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('id')
      .execute();
  }

  async one(orgId: number, id: number): Promise<ReturnReason | null> {
    const row = await this.db
      .selectFrom('commerce_return_reasons')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ?? null;
  }

  async valueTaken(orgId: number, value: string, exceptId: number | null): Promise<boolean> {
    let query = this.db
      .selectFrom('commerce_return_reasons')
      .select('id')
      .where('org_id', '=', orgId)
      .where('value', '=', value);
    if (exceptId !== null) query = query.where('id', '<>', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async insert(orgId: number, fields: ReturnReasonFields, at: Date): Promise<ReturnReason> {
    return this.db
      .insertInto('commerce_return_reasons')
      .values({ org_id: orgId, ...fields, created_at: at, updated_at: at })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async update(
    orgId: number,
    id: number,
    patch: Partial<ReturnReasonFields>,
    at: Date,
  ): Promise<ReturnReason | null> {
    const row = await this.db
      .updateTable('commerce_return_reasons')
      .set({ ...patch, updated_at: at })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ?? null;
  }

  async inUse(id: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('commerce_returns')
      .select('id')
      .where('reason_id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  async delete(orgId: number, id: number): Promise<boolean> {
    const gone = await this.db
      .deleteFrom('commerce_return_reasons')
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(gone.numDeletedRows) > 0;
  }
}
