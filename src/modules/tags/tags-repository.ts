import { sql, type Kysely, type Transaction } from 'kysely';
import { ownedRows, type OwnerScope } from '../../kernel/auth/owner-scope.ts';
import type { TagsTables } from './tags-tables.ts';

type Db = Kysely<TagsTables> | Transaction<TagsTables>;

export interface TaggedResource {
  readonly sourceType: string;
  readonly sourceId: number;
  readonly userId: number;
  readonly orgId: number | null;
}

export class TagsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<TagsTables>): TagsRepository {
    return new TagsRepository(trx);
  }

  async tagsOf(sourceType: string, sourceId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('tags')
      .select('tag')
      .where('source_type', '=', sourceType)
      .where('source_id', '=', sourceId)
      .orderBy('tag')
      .execute();
    return rows.map((r) => r.tag);
  }

  async add(r: TaggedResource, tags: readonly string[], at: Date): Promise<void> {
    if (tags.length === 0) return;
    await this.db
      .insertInto('tags')
      .values(
        tags.map((tag) => ({
          source_type: r.sourceType,
          source_id: r.sourceId,
          tag,
          user_id: r.userId,
          org_id: r.orgId,
          created_at: at,
        })),
      )
      .onConflict((oc) => oc.columns(['source_type', 'source_id', 'tag']).doNothing())
      .execute();
  }

  async remove(sourceType: string, sourceId: number, tag?: string): Promise<void> {
    let query = this.db
      .deleteFrom('tags')
      .where('source_type', '=', sourceType)
      .where('source_id', '=', sourceId);
    if (tag !== undefined) query = query.where('tag', '=', tag);
    await query.execute();
  }

  /** Serialises changes to one resource's tags (the 50 limit holds under concurrent calls). */
  async lock(sourceType: string, sourceId: number): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`tags:${sourceType}:${sourceId}`}))`.execute(this.db);
  }

  /** The caller's tags on resources of `sourceType`, most used first (then by name). */
  async vocabulary(
    owner: OwnerScope,
    sourceType: string,
  ): Promise<{ tag: string; resource_count: number }[]> {
    const rows = await this.db
      .selectFrom('tags')
      .select(['tag', sql<number>`count(*)::int`.as('resource_count')])
      .where('source_type', '=', sourceType)
      .where(ownedRows(owner, 'read'))
      .groupBy('tag')
      .orderBy('resource_count', 'desc')
      .orderBy('tag')
      .execute();
    return rows.map((r) => ({ tag: r.tag, resource_count: Number(r.resource_count) }));
  }

  async sourcesTagged(owner: OwnerScope, sourceType: string, tag: string): Promise<number[]> {
    const rows = await this.db
      .selectFrom('tags')
      .select('source_id')
      .where('source_type', '=', sourceType)
      .where('tag', '=', tag)
      .where(ownedRows(owner, 'read'))
      .execute();
    return rows.map((r) => Number(r.source_id));
  }
}
