import type { Access, OwnerScope } from '../../kernel/auth/owner-scope.ts';
import { invalidField } from '../../kernel/errors/app-error.ts';
import type { TagsContext } from './tags-context.ts';
import { resourceNotFound } from './tags-errors.ts';
import { TagsRepository, type TaggedResource } from './tags-repository.ts';
import { MAX_TAGS_PER_RESOURCE, normaliseTag, SOURCE_TYPES, TAG_RULE, type SourceType } from './tag-rules.ts';

/** Who holds a resource of one source type, when the caller may see or change it; else null. */
export type HolderLookup = (
  owner: OwnerScope,
  sourceId: number,
  access: Access,
) => Promise<{ readonly userId: number; readonly orgId: number | null } | null>;

const none: HolderLookup = async () => null;

/**
 * Tags on the caller's resources (base /api/v1/client/tags). Each source type's module says who
 * holds a resource (`holders`); a type without a module yet (vps, container_server) has none, so
 * its resources are never found.
 */
export class TagsService {
  private readonly repo: TagsRepository;

  constructor(
    private readonly ctx: TagsContext,
    private readonly holders: Partial<Record<SourceType, HolderLookup>>,
  ) {
    this.repo = new TagsRepository(ctx.db);
  }

  async get(owner: OwnerScope, sourceType: string, sourceId: number): Promise<string[]> {
    await this.resource(owner, sourceType, sourceId, 'read');
    return this.repo.tagsOf(sourceType, sourceId);
  }

  async add(owner: OwnerScope, sourceType: string, sourceId: number, input: string): Promise<string[]> {
    const tag = normaliseTag(input);
    if (tag === null) throw invalidField(['body', 'tag'], TAG_RULE, input);
    const resource = await this.resource(owner, sourceType, sourceId, 'write');
    return this.ctx.transaction(async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      await repo.lock(sourceType, sourceId);
      const current = await repo.tagsOf(sourceType, sourceId);
      if (!current.includes(tag) && current.length >= MAX_TAGS_PER_RESOURCE)
        throw invalidField(
          ['body', 'tag'],
          `A resource carries at most ${MAX_TAGS_PER_RESOURCE} tags`,
          input,
        );
      await repo.add(resource, [tag], new Date(this.ctx.clock.now()));
      return repo.tagsOf(sourceType, sourceId);
    });
  }

  /** Replaces every tag of the resource at once (duplicates collapse). */
  async replace(
    owner: OwnerScope,
    sourceType: string,
    sourceId: number,
    input: readonly string[],
  ): Promise<string[]> {
    const tags: string[] = [];
    input.forEach((raw, i) => {
      const tag = normaliseTag(raw);
      if (tag === null) throw invalidField(['body', 'tags', i], TAG_RULE, raw);
      if (!tags.includes(tag)) tags.push(tag);
    });
    if (tags.length > MAX_TAGS_PER_RESOURCE)
      throw invalidField(
        ['body', 'tags'],
        `A resource carries at most ${MAX_TAGS_PER_RESOURCE} tags`,
        input.length,
      );
    const resource = await this.resource(owner, sourceType, sourceId, 'write');
    return this.ctx.transaction(async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      await repo.lock(sourceType, sourceId);
      await repo.remove(sourceType, sourceId);
      await repo.add(resource, tags, new Date(this.ctx.clock.now()));
      return repo.tagsOf(sourceType, sourceId);
    });
  }

  /** Removes one tag; an absent one changes nothing. Answers what is left. */
  async remove(owner: OwnerScope, sourceType: string, sourceId: number, input: string): Promise<string[]> {
    await this.resource(owner, sourceType, sourceId, 'write');
    const tag = normaliseTag(input);
    if (tag !== null) await this.repo.remove(sourceType, sourceId, tag);
    return this.repo.tagsOf(sourceType, sourceId);
  }

  async vocabulary(
    owner: OwnerScope,
    sourceType: string,
  ): Promise<{ tag: string; resource_count: number }[]> {
    checkSourceType(sourceType, 'query');
    return this.repo.vocabulary(owner, sourceType);
  }

  /** The caller's services carrying `tag` (the services list's filter). */
  serviceIdsTagged(owner: OwnerScope, tag: string): Promise<number[]> {
    return this.repo.sourcesTagged(owner, 'service', tag);
  }

  private async resource(
    owner: OwnerScope,
    sourceType: string,
    sourceId: number,
    access: Access,
  ): Promise<TaggedResource> {
    checkSourceType(sourceType, 'path');
    const holder = await (this.holders[sourceType as SourceType] ?? none)(owner, sourceId, access);
    if (holder === null) throw resourceNotFound();
    return { sourceType, sourceId, userId: holder.userId, orgId: holder.orgId };
  }
}

function checkSourceType(sourceType: string, part: 'path' | 'query'): void {
  if (!(SOURCE_TYPES as readonly string[]).includes(sourceType))
    throw invalidField(
      [part, 'source_type'],
      `source_type must be one of ${SOURCE_TYPES.join(', ')}`,
      sourceType,
    );
}
