import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { RuntimeRow, SpecializationRow } from '../catalog-tables.ts';

/** A specialization as the catalogue lists it: its row without what only compose answers. */
export type SpecializationView = JsonView<
  Omit<SpecializationRow, 'adapter_type' | 'versions' | 'defaults' | 'sort_order'>
>;

/** A version of the software, or a runtime of the family shown as one (`runtime_versions`). */
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

/** What compose answers: the specialization, its versions (filtered), its family's runtimes. */
export type ComposeView = JsonView<Omit<SpecializationRow, 'versions' | 'sort_order'>> & {
  versions: VersionItem[];
  runtime_versions: VersionItem[];
  runtimes: JsonView<Omit<RuntimeRow, 'family'>>[];
};

export function specializationView(s: SpecializationRow): SpecializationView {
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
