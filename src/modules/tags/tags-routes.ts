import { Type } from 'typebox';
import { errorResponses } from '../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../kernel/module/platform-module.ts';
import type { TagsService } from './tags-service.ts';

const Source = Type.Object({
  source_type: Type.String({ maxLength: 32 }),
  source_id: Type.Integer({ minimum: 1 }),
});
const Tags = Type.Object({ tags: Type.Array(Type.String()) });
const errors = errorResponses(401, 403, 404, 413, 415, 422, 429);

/** Resource tags (base /api/v1/client/tags): its five routes. */
export function registerTagRoutes(app: ModuleApp, service: TagsService): void {
  app.get(
    '/sources/:source_type/:source_id',
    {
      schema: {
        summary: "A resource's tags, ordered by name",
        params: Source,
        response: {
          200: Type.Object({
            source_type: Type.String(),
            source_id: Type.Integer(),
            tags: Type.Array(Type.String()),
          }),
          ...errorResponses(401, 404, 422, 429),
        },
      },
    },
    async (request) => {
      const { source_type, source_id } = request.params;
      return {
        source_type,
        source_id,
        tags: await service.get(await request.owner(), source_type, source_id),
      };
    },
  );

  app.post(
    '/sources/:source_type/:source_id',
    {
      schema: {
        summary: 'Tag a resource (answers its tags, ordered by name)',
        params: Source,
        body: Type.Object({ tag: Type.String({ maxLength: 200 }) }, { additionalProperties: false }),
        response: { 200: Tags, ...errors },
      },
    },
    async (request) => {
      const { source_type, source_id } = request.params;
      return { tags: await service.add(await request.owner(), source_type, source_id, request.body.tag) };
    },
  );

  app.put(
    '/sources/:source_type/:source_id',
    {
      schema: {
        summary: "Replace all of a resource's tags (answers them, ordered by name)",
        params: Source,
        body: Type.Object(
          { tags: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 200 }) },
          { additionalProperties: false },
        ),
        response: { 200: Tags, ...errors },
      },
    },
    async (request) => {
      const { source_type, source_id } = request.params;
      return {
        tags: await service.replace(await request.owner(), source_type, source_id, request.body.tags),
      };
    },
  );

  app.delete(
    '/sources/:source_type/:source_id/:tag',
    {
      schema: {
        summary: 'Remove a tag (an absent one changes nothing); answers the tags left, ordered by name',
        params: Type.Object({ ...Source.properties, tag: Type.String({ maxLength: 200 }) }),
        response: { 200: Tags, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request) => {
      const { source_type, source_id, tag } = request.params;
      return { tags: await service.remove(await request.owner(), source_type, source_id, tag) };
    },
  );

  app.get(
    '/vocabulary',
    {
      schema: {
        summary: "The caller's tags on one source type, most used first (then by name)",
        querystring: Type.Object({ source_type: Type.String({ maxLength: 32 }) }),
        response: {
          200: Type.Object({
            items: Type.Array(Type.Object({ tag: Type.String(), resource_count: Type.Integer() })),
            source_type: Type.String(),
          }),
          ...errorResponses(401, 422, 429),
        },
      },
    },
    async (request) => ({
      items: await service.vocabulary(await request.owner(), request.query.source_type),
      source_type: request.query.source_type,
    }),
  );
}
