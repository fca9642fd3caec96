import { defineConfigSection } from '../../kernel/config/config-section.ts';

/** A region of object storage: a location (by its code) with the public S3 endpoint of its gateway. */
export interface StorageRegionSetting {
  /** A location code (`FRA`): the region's `id` is that location's. */
  readonly code: string;
  /** Shown instead of the location's name and country when given. */
  readonly name: string | null;
  readonly countryCode: string | null;
  /** The S3 endpoint clients use (path-style), e.g. `https://fra.s3.example.net`. */
  readonly endpoint: string;
  /** The admin ops API of this region's gateway, when not OBJECT_STORAGE_ADMIN_URL. */
  readonly adminUrl: string | null;
}

export interface ObjectStorageSettings {
  /** The gateway's admin ops API (`/admin/...`); null: not configured (see `local`). */
  readonly adminUrl: string | null;
  readonly adminAccessKey: string | null;
  readonly adminSecretKey: string | null;
  /** Empty: one region, the admin URL's gateway at `localRegion`. */
  readonly regions: readonly StorageRegionSetting[];
  /**
   * `auto`: with no admin URL and `radosgw` on the PATH, start a single-node gateway under
   * DATA_DIR/objectstore; `off`: never (object storage is then not configured).
   */
  readonly local: 'auto' | 'off';
  /** The location code of the local gateway's region, and of a lone admin URL's. */
  readonly localRegion: string;
  /** Seconds between the hourly meter's readings. */
  readonly meterIntervalS: number;
  /** The region requests to the gateway are signed for (RGW accepts the one they name). */
  readonly signingRegion: string;
}

function regionsOf(raw: string | undefined, problem: (m: string) => void): StorageRegionSetting[] {
  if (raw === undefined || raw.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    problem(
      'OBJECT_STORAGE_REGIONS: not JSON (a list of {code, name?, country_code?, endpoint, admin_url?})',
    );
    return [];
  }
  if (!Array.isArray(parsed)) {
    problem('OBJECT_STORAGE_REGIONS: must be a JSON list');
    return [];
  }
  const out: StorageRegionSetting[] = [];
  for (const [i, r] of parsed.entries()) {
    const o = (r ?? {}) as Record<string, unknown>;
    const str = (k: string): string | null =>
      typeof o[k] === 'string' && o[k] !== '' ? (o[k] as string) : null;
    const code = str('code');
    const endpoint = str('endpoint');
    if (code === null || endpoint === null || !/^https?:\/\//.test(endpoint)) {
      problem(`OBJECT_STORAGE_REGIONS[${i}]: needs "code" and an http(s) "endpoint"`);
      continue;
    }
    out.push({
      code: code.toUpperCase(),
      name: str('name'),
      countryCode: str('country_code'),
      endpoint: endpoint.replace(/\/+$/, ''),
      adminUrl: str('admin_url'),
    });
  }
  return out;
}

export const objectStorageConfig = defineConfigSection<ObjectStorageSettings>('object-storage', (env) => {
  const adminUrl = env.url('OBJECT_STORAGE_ADMIN_URL', ['http:', 'https:']);
  const adminAccessKey = env.optional('OBJECT_STORAGE_ADMIN_ACCESS_KEY');
  const adminSecretKey = env.optional('OBJECT_STORAGE_ADMIN_SECRET_KEY');
  if (adminUrl !== null && (adminAccessKey === null || adminSecretKey === null))
    env.problem(
      'OBJECT_STORAGE_ADMIN_URL needs OBJECT_STORAGE_ADMIN_ACCESS_KEY and OBJECT_STORAGE_ADMIN_SECRET_KEY',
    );
  const local = env.str('OBJECT_STORAGE_LOCAL', 'auto');
  if (local !== 'auto' && local !== 'off') env.problem('OBJECT_STORAGE_LOCAL: auto or off');
  return {
    adminUrl: adminUrl?.replace(/\/+$/, '') ?? null,
    adminAccessKey,
    adminSecretKey,
    regions: regionsOf(env.raw('OBJECT_STORAGE_REGIONS'), (m) => env.problem(m)),
    local: local === 'off' ? 'off' : 'auto',
    localRegion: env.str('OBJECT_STORAGE_LOCAL_REGION', 'FRA').toUpperCase(),
    meterIntervalS: env.int('OBJECT_STORAGE_METER_INTERVAL_S', 3600, 1, 86_400),
    signingRegion: env.str('OBJECT_STORAGE_SIGNING_REGION', 'us-east-1'),
  };
});
