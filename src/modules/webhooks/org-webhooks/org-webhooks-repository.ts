import { sql, type Kysely, type Transaction } from 'kysely';
import type { WebhookRow, WebhooksTables } from '../webhooks-tables.ts';

type Tables = WebhooksTables;
type Db = Kysely<Tables> | Transaction<Tables>;

/** Organization webhooks; a deleted one is gone from every answer (its row stays). */
export class OrgWebhooksRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<Tables>): OrgWebhooksRepository {
    return new OrgWebhooksRepository(trx);
  }

  async insert(
    row: Pick<WebhookRow, 'org_id' | 'url' | 'events' | 'secret' | 'created_at'>,
  ): Promise<WebhookRow> {
    return this.db
      .insertInto('webhooks')
      .values({ ...row, events: JSON.stringify(row.events) } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async listOfOrg(orgId: number): Promise<WebhookRow[]> {
    return this.db
      .selectFrom('webhooks')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .execute();
  }

  async find(id: number): Promise<WebhookRow | null> {
    return (
      (await this.db
        .selectFrom('webhooks')
        .selectAll()
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst()) ?? null
    );
  }

  async findOfOrg(orgId: number, id: number): Promise<WebhookRow | null> {
    const row = await this.find(id);
    return row !== null && Number(row.org_id) === orgId ? row : null;
  }

  /** The organization's active webhooks. */
  async listeners(orgId: number): Promise<WebhookRow[]> {
    return this.db
      .selectFrom('webhooks')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('deleted_at', 'is', null)
      .where('is_active', '=', true)
      .execute();
  }

  async update(
    id: number,
    set: Partial<Pick<WebhookRow, 'url' | 'events' | 'is_active' | 'failure_count'>>,
  ): Promise<void> {
    const values: Record<string, unknown> = { ...set };
    if (set.events !== undefined) values.events = JSON.stringify(set.events);
    await this.db.updateTable('webhooks').set(values).where('id', '=', id).execute();
  }

  async markDeleted(id: number, at: Date): Promise<void> {
    await this.db
      .updateTable('webhooks')
      .set({ deleted_at: at, is_active: false })
      .where('id', '=', id)
      .execute();
  }

  async recordSuccess(id: number, at: Date): Promise<void> {
    await this.db
      .updateTable('webhooks')
      .set({ failure_count: 0, last_triggered_at: at })
      .where('id', '=', id)
      .execute();
  }

  async recordFailure(id: number, at: Date, error: string): Promise<number> {
    const row = await this.db
      .updateTable('webhooks')
      .set({ failure_count: sql`failure_count + 1`, last_error: error, last_error_at: at })
      .where('id', '=', id)
      .returning('failure_count')
      .executeTakeFirst();
    return Number(row?.failure_count ?? 0);
  }
}
