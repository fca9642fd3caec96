import { defineConfigSection } from '../../../kernel/config/config-section.ts';

/**
 * Where the Proxmox VE cluster is and how to reach it. Unset `PVE_URL`: no PVE provider (the
 * platform runs its local server instead, or offers no VPS plans).
 */
export interface PveProviderSettings {
  /** scheme://host:port of one cluster node (e.g. `https://pve1.example.net:8006`); the adapter adds `/api2/json`. */
  readonly url: string;
  /** `user@realm!tokenid`. */
  readonly tokenId: string;
  /** The token's secret (a UUID): never logged. */
  readonly tokenSecret: string;
  /** A CA (PEM) to trust for the cluster's certificate besides the system's (PVE signs its own by default). */
  readonly caFile: string | null;
  /** The storage full clones are written to (`storage` of clone); null: the template's own. */
  readonly storage: string | null;
  /** The storage vzdump writes archives to and backups are listed from. */
  readonly backupStorage: string;
  /** The storage holding the ISO images offered as rescue media. */
  readonly isoStorage: string;
  /** The nodes VMs are placed on; empty: the cluster's online nodes (`GET /nodes`). */
  readonly nodes: readonly string[];
}

const TOKEN_ID_RE = /^[^\s@!]+@[A-Za-z][A-Za-z0-9._-]*![A-Za-z][A-Za-z0-9._-]*$/;
const STORAGE_RE = /^[a-z][a-z0-9._-]*$/i;
const NODE_RE = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/i;

export const pveProviderConfig = defineConfigSection<PveProviderSettings | null>('compute-pve', (env) => {
  const url = env.url('PVE_URL', ['https:', 'http:']);
  if (url === null) return null;
  try {
    const u = new URL(url);
    if (u.pathname !== '/' && u.pathname !== '')
      env.problem('PVE_URL must be scheme://host:port only (the adapter adds /api2/json)');
  } catch {
    // already recorded by env.url
  }
  const tokenId = env.str('PVE_TOKEN_ID', '');
  if (!TOKEN_ID_RE.test(tokenId)) env.problem('PVE_TOKEN_ID must be user@realm!tokenid');
  const tokenSecret = env.str('PVE_TOKEN_SECRET', '');
  if (tokenSecret === '') env.problem('PVE_TOKEN_SECRET must be set when PVE_URL is');
  const storage = env.optional('PVE_STORAGE');
  const backupStorage = env.str('PVE_BACKUP_STORAGE', 'local');
  const isoStorage = env.str('PVE_ISO_STORAGE', 'local');
  for (const [name, v] of [
    ['PVE_STORAGE', storage],
    ['PVE_BACKUP_STORAGE', backupStorage],
    ['PVE_ISO_STORAGE', isoStorage],
  ] as const) {
    if (v !== null && !STORAGE_RE.test(v)) env.problem(`${name} is not a PVE storage id, got "${v}"`);
  }
  const nodes = env.list('PVE_NODES', '');
  for (const n of nodes) if (!NODE_RE.test(n)) env.problem(`PVE_NODES entry "${n}" is not a node name`);
  return {
    url: url.replace(/\/+$/, ''),
    tokenId,
    tokenSecret,
    caFile: env.optional('PVE_CA_FILE'),
    storage,
    backupStorage,
    isoStorage,
    nodes,
  };
});
