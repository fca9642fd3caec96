/**
 * The container catalogue's answers: the list item, and the compose answer
 * with the software versions (filtered), the runtimes of the specialization's family as version
 * items (`runtime_versions`), the runtimes and the defaults.
 */
import type { SpecVersionData } from '../catalog-files/catalog-file-schemas.ts';
import { specializationNotFound } from '../catalog-errors.ts';
import type { RuntimeRow } from '../catalog-tables.ts';
import type { ContainerCatalogRepository } from './container-catalog-repository.ts';
import {
  specializationView,
  type ComposeView,
  type SpecializationView,
  type VersionItem,
} from './specialization-view.ts';

export interface ComposeQuery {
  readonly supportedOnly: boolean;
  readonly includeSnapshots: boolean;
  readonly limit: number;
}

const isSnapshot = (v: SpecVersionData): boolean => v.metadata?.snapshot === true;

/** The Java major version a runtime provides (java-21 → 21), for its `required_java`. */
const javaOf = (r: RuntimeRow): number | null => {
  const m = /^java-(\d+)$/.exec(r.slug);
  return r.family === 'java' && m ? Number(m[1]) : null;
};

/** A runtime of the specialization's family, shown as a version to choose. */
const runtimeAsVersion = (r: RuntimeRow): SpecVersionData => ({
  version_id: r.slug,
  name: r.name,
  release_date: null,
  supported: true,
  required_java: javaOf(r),
  build_number: null,
  recommended_runtime_slug: r.slug,
  game_versions: [],
  metadata: { docker_image: r.docker_image },
});

export class ContainerCatalogService {
  constructor(private readonly repo: ContainerCatalogRepository) {}

  /** Every specialization of the platform (no organization's own), catalogue order. */
  async list(category: string | undefined): Promise<SpecializationView[]> {
    return (await this.repo.specializations(category)).map(specializationView);
  }

  async compose(slug: string, q: ComposeQuery): Promise<ComposeView> {
    const spec = await this.repo.specialization(slug);
    if (spec === null) throw specializationNotFound();
    const runtimes = await this.repo.runtimes();
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
    return {
      ...specializationView(spec),
      adapter_type: spec.adapter_type,
      versions,
      runtime_versions: family.map((r) => item(runtimeAsVersion(r))),
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
