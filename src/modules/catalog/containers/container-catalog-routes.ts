import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import { describes, Nullable } from '../../../kernel/http/view-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { ContainerCatalogService } from './container-catalog-service.ts';
import type { ComposeView, SpecializationView } from './specialization-view.ts';

const JsonObject = Nullable(Type.Record(Type.String(), Type.Unknown()));
const S = Nullable(Type.String());

const specializationFields = {
  uuid: Type.String(),
  slug: Type.String(),
  name: Type.String(),
  description: S,
  runtime_template_slug: S,
  category: S,
  version_variable: S,
  version_source_slug: S,
  software_identifier: S,
  runtime_family: S,
  icon_url: S,
  color: S,
  group: S,
  org_id: Nullable(Type.Integer()),
  default_variables: JsonObject,
  metadata: JsonObject,
  versioned: Type.Boolean(),
  deprecated: Type.Boolean(),
};

const SpecializationResponse = describes<SpecializationView>()(Type.Object(specializationFields));

const VersionItem = Type.Object({
  version_id: Type.String(),
  name: Type.String(),
  release_date: S,
  supported: Nullable(Type.Boolean()),
  required_java: Nullable(Type.Integer()),
  build_number: Nullable(Type.Integer()),
  recommended_runtime_slug: S,
  recommended_runtime_uuid: S,
  recommended_runtime_name: S,
  game_versions: Type.Array(Type.String()),
  metadata: JsonObject,
  runtime_template_slug: S,
  runtime_template_uuid: S,
});

const ComposeResponse = describes<ComposeView>()(
  Type.Object({
    ...specializationFields,
    adapter_type: S,
    versions: Type.Array(VersionItem),
    runtime_versions: Type.Array(VersionItem),
    runtimes: Type.Array(
      Type.Object({
        uuid: Type.String(),
        slug: Type.String(),
        name: Type.String(),
        docker_image: Type.String(),
        description: S,
      }),
    ),
    defaults: Type.Record(Type.String(), Type.Unknown()),
  }),
);

/** The container catalogue (token required: docs/catalogue-and-services.md, "Catalogue"). */
export function registerContainerCatalogRoutes(app: ModuleApp, catalog: ContainerCatalogService): void {
  app.get(
    '/client/containers/catalog',
    {
      schema: {
        summary: 'The container catalogue: specializations (apps and game servers) to run',
        description: "In the catalogue's order (sort_order, slug); the platform's own only.",
        querystring: Type.Object({ category: Type.Optional(Type.String({ maxLength: 64 })) }),
        response: { 200: Type.Array(SpecializationResponse), ...errorResponses(422) },
      },
    },
    async (request) => catalog.list(request.query.category),
  );

  app.get(
    '/client/containers/catalog/:slug/compose',
    {
      schema: {
        summary: 'What a specialization runs: its versions, runtimes and defaults',
        description: 'Versions newest first, as the catalogue file lists them; runtimes ordered by slug.',
        params: Type.Object({ slug: Type.String({ maxLength: 64 }) }),
        querystring: Type.Object({
          supported_only: Type.Boolean({ default: true }),
          include_snapshots: Type.Boolean({ default: false }),
          limit: Type.Integer({ minimum: 1, maximum: 1000, default: 200 }),
        }),
        response: { 200: ComposeResponse, ...errorResponses(404, 422) },
      },
    },
    async (request) =>
      catalog.compose(request.params.slug, {
        supportedOnly: request.query.supported_only,
        includeSnapshots: request.query.include_snapshots,
        limit: request.query.limit,
      }),
  );
}
