/**
 * Which gateway object storage uses, decided at start: the configured one
 * (OBJECT_STORAGE_ADMIN_URL, with OBJECT_STORAGE_REGIONS or one region at its own URL); else,
 * with `radosgw` installed and OBJECT_STORAGE_LOCAL=auto, a single-node gateway started here under
 * DATA_DIR/objectstore; else none (products answer `not_configured`), and the log says how to
 * enable it.
 */
import path from 'node:path';
import type { ObjectStorageContext } from '../object-storage-context.ts';
import { localGatewayInstalled, startLocalGateway } from './local-gateway.ts';
import type { StorageGateways } from './storage-gateways.ts';

export interface StartedGateway {
  stop(): Promise<void>;
}

export async function startGateway(
  ctx: ObjectStorageContext,
  gateways: StorageGateways,
): Promise<StartedGateway | null> {
  const s = ctx.settings;
  if (s.adminUrl !== null) {
    gateways.configure(
      { adminUrl: s.adminUrl, accessKey: s.adminAccessKey!, secretKey: s.adminSecretKey! },
      s.regions.length > 0
        ? s.regions
        : [{ code: s.localRegion, name: null, countryCode: null, endpoint: s.adminUrl, adminUrl: null }],
    );
    ctx.log.info({ regions: gateways.all().map((r) => r.code) }, 'object storage: gateway configured');
    return null;
  }
  if (s.local === 'off' || !localGatewayInstalled()) {
    ctx.log.info(
      'object storage not configured: set OBJECT_STORAGE_ADMIN_URL (and its keys), or install radosgw (apt-get install ceph-mon ceph-osd radosgw ceph-common) for a local gateway',
    );
    return null;
  }
  const local = await startLocalGateway({ dir: path.join(ctx.config.dataDir, 'objectstore'), log: ctx.log });
  gateways.configure(
    { adminUrl: local.url, accessKey: local.adminAccessKey, secretKey: local.adminSecretKey },
    [{ code: s.localRegion, name: null, countryCode: null, endpoint: local.url, adminUrl: null }],
  );
  ctx.log.info(
    { url: local.url, dir: local.dir, created: local.created, startMs: local.startMs },
    'object storage: local gateway started (one node, DATA_DIR/objectstore)',
  );
  return local;
}
