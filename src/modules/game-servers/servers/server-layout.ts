/**
 * A server's directory and what its specialization loads: `<root>/<uuid>/` with `plugins/` (Paper),
 * `mods/` (Fabric, Forge) and `world/datapacks/`; addon builds wait under `.staged/` until the
 * next start.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Loader, SoftwareKind } from '../game-servers-tables.ts';

/** The loader of a catalogue specialization (`minecraft-paper` → paper). */
export function loaderOf(specializationSlug: string): Loader {
  const tail = specializationSlug.split('-').pop() ?? '';
  if (tail === 'paper' || tail === 'purpur' || tail === 'spigot') return 'paper';
  if (tail === 'fabric' || tail === 'quilt') return 'fabric';
  if (tail === 'forge' || tail === 'neoforge') return 'forge';
  return 'none';
}

/** The folder addons of the loader live in, relative to the server's directory, and their kind. */
export function addonFolderOf(loader: Loader): { folder: string; kind: SoftwareKind } | null {
  if (loader === 'paper') return { folder: 'plugins', kind: 'plugin' };
  if (loader === 'fabric' || loader === 'forge') return { folder: 'mods', kind: 'mod' };
  return null;
}

export const DATAPACK_FOLDER = 'world/datapacks';
export const STAGED_FOLDER = '.staged';

export const serverDir = (root: string, uuid: string): string => path.join(root, uuid);

interface CatalogVersion {
  version_id: string;
  supported: boolean | null;
  build_number: number | null;
  game_versions?: string[];
}

/** The newest supported version of a specialization in the shipped catalogue (catalog/containers.json). */
export function defaultVersionOf(
  specializationSlug: string,
): { versionId: string; buildNumber: number | null; gameVersion: string } | null {
  let file: { specializations: { slug: string; versions: CatalogVersion[] }[] };
  try {
    file = JSON.parse(
      readFileSync(new URL('../../../../catalog/containers.json', import.meta.url), 'utf8'),
    ) as typeof file;
  } catch {
    return null;
  }
  const spec = file.specializations.find((s) => s.slug === specializationSlug);
  const v = spec?.versions.find((x) => x.supported === true);
  if (v === undefined) return null;
  return {
    versionId: v.version_id,
    buildNumber: v.build_number,
    gameVersion: v.game_versions?.[0] ?? v.version_id,
  };
}
