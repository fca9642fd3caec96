import type { Runtime } from '../../../kernel/runtime/runtime.ts';
import { dnsContext } from '../dns-context.ts';
import { zoneChanged } from '../dns-events.ts';
import type { DnsPublishing, ZoneSteeringSource } from '../dns-interfaces.ts';
import { keyContext } from '../dnssec/dnssec-key-sealing.ts';
import { zoneStatsSink } from '../stats/zone-stats-sink.ts';
import { TransferZoneSource } from '../transfers/transfer-zone-source.ts';
import { TransfersRepository } from '../transfers/transfers-repository.ts';
import { ZoneVersions } from '../transfers/zone-versions.ts';
import { ZonesRepository } from '../zones/zones-repository.ts';
import { publishedZoneSource } from './db-zone-source.ts';

/**
 * What a DNS node reads of the DNS module (its own runtime: in a DNS worker, a process of its
 * own): the zones with their steering (from the load-balancing module, through `steering`) and
 * transfer policies, their serials and changes, the IXFR history, where query counts go.
 */
export function createDnsPublishing(runtime: Runtime, steering: ZoneSteeringSource): DnsPublishing {
  const ctx = dnsContext(runtime);
  const transfers = new TransfersRepository(ctx.db);
  const zones = new ZonesRepository(ctx.db);
  return {
    zones: new TransferZoneSource(publishedZoneSource(ctx, steering), transfers, ctx.sealer, ctx.log),
    serials: () => zones.serials(),
    onZoneChanged: (handler) => ctx.events.subscribe(zoneChanged, handler),
    transferHistory: new ZoneVersions(transfers, null, ctx.clock),
    statsSink: zoneStatsSink(ctx.bus, ctx.log),
    keyContext,
  };
}
