/**
 * The container catalogue's answers (seed "Specialization"): the list item, and the compose answer
 * with the software versions (filtered), the runtimes of the specialization's family as version
 * items (`runtime_versions`), the runtimes and the defaults.
 */
import type { Kysely } from 'kysely';
import type { SpecVersionData } from '../catalog-files/catalog-file-schemas.ts';
import { specializationNotFound } from '../catalog-errors.ts';
import type { CatalogTables, RuntimeRow, SpecializationRow } from '../catalog-tables.ts';

/** A specialization as the catalogue lists it: its row without what only compose answers. */
export type SpecializationView = Omit<
  SpecializationRow,
  'adapter_type' | 'versions' | 'defaults' | 'sort_order'
>;

export interface VersionItem {
  version_id: string;
  name: string;
  release_date: string | null;
  supported: boolean | null;
  required_java: number | null;
  build_number: number | null;
  recommended_runtime_slug: string | null;
  recommended_runtime_uuid: string | null;
  recommended_runtime_name: string | null;
  game_versions: string[];
  metadata: Record<string, unknown> | null;
  runtime_template_slug: string | null;
  runtime_template_uuid: string | null;
}

export interface ComposeView extends SpecializationView {
  adapter_type: string | null;
  versions: VersionItem[];
  runtime_versions: VersionItem[];
  runtimes: { uuid: string; slug: string; name: string; docker_image: string; description: string | null }[];
  defaults: Record<string, unknown>;
}

export interface ComposeQuery {
  readonly supportedOnly: boolean;
  readonly includeSnapshots: boolean;
  readonly limit: number;
}

function specializationView(s: SpecializationRow): SpecializationView {
  return {
    uuid: s.uuid,
    slug: s.slug,
    name: s.name,
    description: s.description,
    runtime_template_slug: s.runtime_template_slug,
    category: s.category,
    version_variable: s.version_variable,
    version_source_slug: s.version_source_slug,
    software_identifier: s.software_identifier,
    runtime_family: s.runtime_family,
    icon_url: s.icon_url,
    color: s.color,
    group: s.group,
    org_id: s.org_id === null ? null : Number(s.org_id),
    default_variables: s.default_variables,
    metadata: s.metadata,
    versioned: s.versioned,
    deprecated: s.deprecated,
  };
}

const isSnapshot = (v: SpecVersionData): boolean => v.metadata?.snapshot === true;

/** The Java major version a runtime provides (java-21 → 21), for its `required_java`. */
const javaOf = (r: RuntimeRow): number | null => {
  const m = /^java-(\d+)$/.exec(r.slug);
  return r.family === 'java' && m ? Number(m[1]) : null;
};

export class ContainerCatalog {
  constructor(private readonly db: Kysely<CatalogTables>) {}

  /** Every specialization of the platform (no organization's own), catalogue order. */
  async list(category: string | undefined): Promise<SpecializationView[]> {
    let query = this.db.selectFrom('catalog_specializations').selectAll().where('org_id', 'is', null);
    if (category !== undefined) query = query.where('category', '=', category);
    const rows = await query.orderBy('sort_order').orderBy('slug').execute();
    return rows.map(specializationView);
  }

  async compose(slug: string, q: ComposeQuery): Promise<ComposeView> {
    const spec = await this.db
      .selectFrom('catalog_specializations')
      .selectAll()
      .where('slug', '=', slug)
      .where('org_id', 'is', null)
      .executeTakeFirst();
    if (spec === undefined) throw specializationNotFound();
    const runtimes = await this.db.selectFrom('catalog_runtimes').selectAll().orderBy('slug').execute();
    const bySlug = new Map(runtimes.map((r) => [r.slug, r]));
    const template = spec.runtime_template_slug === null ? undefined : bySlug.get(spec.runtime_template_slug);
    const item = (v: SpecVersionData): VersionItem => {
      const rec = v.recommended_runtime_slug === null ? undefined : bySlug.get(v.recommended_runtime_slug);
      return {
        ...v,
        recommended_runtime_uuid: rec?.uuid ?? null,
        recommended_runtime_name: rec?.name ?? null,
        runtime_template_slug: template?.slug ?? null,
        runtime_template_uuid: template?.uuid ?? null,
      };
    };
    const versions = (spec.versions as SpecVersionData[])
      .filter((v) => !q.supportedOnly || v.supported === true)
      .filter((v) => q.includeSnapshots || !isSnapshot(v))
      .slice(0, q.limit)
      .map(item);
    const family = runtimes.filter((r) => spec.runtime_family !== null && r.family === spec.runtime_family);
    const runtimeVersions = family.map((r) =>
      item({
        version_id: r.slug,
        name: r.name,
        release_date: null,
        supported: true,
        required_java: javaOf(r),
        build_number: null,
        recommended_runtime_slug: r.slug,
        game_versions: [],
        metadata: { docker_image: r.docker_image },
      }),
    );
    return {
      ...specializationView(spec),
      adapter_type: spec.adapter_type,
      versions,
      runtime_versions: runtimeVersions,
      runtimes: family.map((r) => ({
        uuid: r.uuid,
        slug: r.slug,
        name: r.name,
        docker_image: r.docker_image,
        description: r.description,
      })),
      defaults: spec.defaults,
    };
  }
}
