/**
 * Zone transfers in the API process: the settings routes, and the hook that keeps IXFR history
 * and sends NOTIFY after every committed change (ZoneChanges.onCommitted).
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../../kernel/app-context.ts';
import { DnssecZoneMaterial } from '../dnssec/dnssec-zone-material.ts';
import type { DnssecTables } from '../dnssec/dnssec-tables.ts';
import { keyEncryptionFromConfig } from '../dnssec/key-encryption.ts';
import { DbZoneSource } from '../publishing/db-zone-source.ts';
import type { DnsTables } from '../shared/dns-tables.ts';
import type { ZoneChangePublisher } from '../publishing/zone-change-publisher.ts';
import type { ZoneChanges } from '../zones/zone-change.ts';
import type { ZonesRepository } from '../zones/zones-repository.ts';
import { TransferChangeHook } from './transfer-change-hook.ts';
import { TransfersRepository } from './transfers-repository.ts';
import { registerTransferRoutes } from './transfers-routes.ts';
import { TransfersService } from './transfers-service.ts';
import type { TransferTables } from './transfers-tables.ts';
import { ZoneVersions } from './zone-versions.ts';

/** The records a DNS node loads for a zone, built as the DNS role builds them (dns-role.ts). */
export function publishedZoneSource(ctx: AppContext): DbZoneSource {
  return new DbZoneSource(
    ctx.db as Kysely<DnsTables>,
    ctx.config.nameservers,
    new DnssecZoneMaterial(ctx.db as Kysely<DnssecTables>, keyEncryptionFromConfig(ctx.config)),
  );
}

export function registerZoneTransfers(
  app: FastifyInstance,
  ctx: AppContext,
  deps: { zones: ZonesRepository; changes: ZoneChanges; publisher: ZoneChangePublisher },
): void {
  const repo = new TransfersRepository(ctx.db as Kysely<TransferTables>);
  const enc = keyEncryptionFromConfig(ctx.config);
  const versions = new ZoneVersions(repo, publishedZoneSource(ctx), ctx.clock);
  const hook = new TransferChangeHook(repo, versions, enc, ctx.log);
  deps.changes.onCommitted((c) => hook.changed(c.zoneId));
  app.addHook('onClose', () => hook.stop());
  registerTransferRoutes(
    app,
    new TransfersService(repo, deps.zones, enc, deps.publisher, versions, ctx.clock),
  );
}
