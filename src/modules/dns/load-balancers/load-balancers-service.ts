import type { Transaction } from 'kysely';
import type { Static } from 'typebox';
import { RR_TYPE } from '../../../dns/index.ts';
import { conflict, forbidden, invalidField, notFound } from '../../../kernel/errors/app-error.ts';
import type { PoolsRepository } from '../pools/pools-repository.ts';
import type { NameClaim, NameClaimSource } from '../records/records-service.ts';
import type { DnsTables, LoadBalancerRow, ZoneRow } from '../shared/dns-tables.ts';
import { resolveRecordName } from '../shared/record-name.ts';
import { ZONE_NOT_FOUND, type ZoneChanges } from '../zones/zone-change.ts';
import type { ZonesRepository } from '../zones/zones-repository.ts';
import { loadBalancerView, type LoadBalancerView } from './load-balancer-view.ts';
import type { CreateLoadBalancerBody, UpdateLoadBalancerBody } from './load-balancers-schemas.ts';
import type { LoadBalancerValues, LoadBalancersRepository } from './load-balancers-repository.ts';
import { checkSteeringLimit, normaliseSteering } from './steering-input.ts';

export type CreateLoadBalancer = Static<typeof CreateLoadBalancerBody>;
export type UpdateLoadBalancer = Static<typeof UpdateLoadBalancerBody>;

export const LB_NOT_FOUND = 'Load balancer not found';
export const LB_LIMIT = 50;
export const LB_LIMIT_REACHED = `Load balancer limit reached (${LB_LIMIT})`;
export const HOSTNAME_OWNED = 'A load balancer already owns this hostname';
export const HOSTNAME_HAS_RECORDS =
  'Hostname already has A/AAAA/CNAME records; remove them before creating a load balancer';
export const RECORD_AT_LB = 'A load balancer owns this hostname; A/AAAA/CNAME records cannot be added there';

const MAX_NAME = 100;
const ADDRESS_TYPES: ReadonlySet<number> = new Set([RR_TYPE.A, RR_TYPE.AAAA, RR_TYPE.CNAME]);
const LB_CLAIM: NameClaim = { refuse: (type) => (ADDRESS_TYPES.has(type) ? RECORD_AT_LB : null) };

/** Load balancers: a hostname of the zone answered from pools instead of A/AAAA/CNAME records. */
export class LoadBalancersService {
  constructor(
    private readonly repo: LoadBalancersRepository,
    private readonly pools: PoolsRepository,
    private readonly zones: ZonesRepository,
    private readonly changes: ZoneChanges,
  ) {}

  /** For RecordsService.addNameClaimSource: A/AAAA/CNAME records cannot sit at a load balancer's hostname. */
  readonly nameClaims: NameClaimSource = async (zoneId, db) =>
    new Map((await this.repo.hostnames(db, zoneId)).map((h) => [h, LB_CLAIM]));

  async list(userId: number, zoneId: number): Promise<LoadBalancerView[]> {
    const zone = await this.zones.findOwned(userId, zoneId);
    if (!zone) throw notFound(ZONE_NOT_FOUND);
    return (await this.repo.list(zone.id)).map(loadBalancerView);
  }

  async get(userId: number, zoneId: number, lbId: number): Promise<LoadBalancerView> {
    return loadBalancerView(await this.findOwned(userId, zoneId, lbId));
  }

  /** The row, for the preview; 404 for another account's zone or an id not in the zone. */
  async findOwned(userId: number, zoneId: number, lbId: number): Promise<LoadBalancerRow> {
    const zone = await this.zones.findOwned(userId, zoneId);
    if (!zone) throw notFound(ZONE_NOT_FOUND);
    const lb = await this.repo.find(zone.id, lbId);
    if (!lb) throw notFound(LB_NOT_FOUND);
    return lb;
  }

  async create(userId: number, zoneId: number, body: CreateLoadBalancer): Promise<LoadBalancerView> {
    return this.changes.apply(userId, zoneId, async (trx, zone) => ({
      value: loadBalancerView(await this.createIn(trx, zone, body)),
      changed: true,
    }));
  }

  /** Creates within a running zone change (the /lb-pools hostname shortcut uses it too). */
  async createIn(
    trx: Transaction<DnsTables>,
    zone: ZoneRow,
    body: CreateLoadBalancer,
  ): Promise<LoadBalancerRow> {
    const hostname = this.resolveHostname(body.hostname, zone.domain);
    const steering = normaliseSteering(body, await this.pools.ids(trx, zone.id));
    if ((await this.repo.count(trx, zone.id)) >= LB_LIMIT) throw forbidden(LB_LIMIT_REACHED);
    const values: LoadBalancerValues = {
      name: body.name ?? hostname.slice(0, MAX_NAME),
      hostname,
      ttl: body.ttl ?? 30,
      session_affinity: body.session_affinity ?? 'none',
      steering_policy: body.steering_policy ?? 'off',
      location_strategy: body.location_strategy ?? 'pop',
      default_pools: steering.default_pools ?? [],
      fallback_pool_id: steering.fallback_pool_id ?? null,
      region_pools: steering.region_pools ?? {},
      country_pools: steering.country_pools ?? {},
      location_pools: steering.location_pools ?? {},
      on_all_unhealthy: body.on_all_unhealthy ?? 'serve_last',
      enabled: body.enabled ?? true,
    };
    checkSteeringLimit([values.region_pools, values.country_pools, values.location_pools]);
    await this.claimHostname(trx, zone.id, hostname, null);
    return this.repo.insert(trx, zone.id, values);
  }

  async update(
    userId: number,
    zoneId: number,
    lbId: number,
    patch: UpdateLoadBalancer,
  ): Promise<LoadBalancerView> {
    return this.changes.apply(userId, zoneId, async (trx, zone) => {
      const lb = await this.repo.find(zone.id, lbId, trx);
      if (!lb) throw notFound(LB_NOT_FOUND);
      const values: Partial<LoadBalancerValues> = {};
      for (const key of [
        'name',
        'ttl',
        'session_affinity',
        'steering_policy',
        'location_strategy',
        'on_all_unhealthy',
        'enabled',
      ] as const) {
        if (patch[key] !== undefined) (values as Record<string, unknown>)[key] = patch[key];
      }
      if (patch.hostname !== undefined) values.hostname = this.resolveHostname(patch.hostname, zone.domain);
      Object.assign(values, normaliseSteering(patch, await this.pools.ids(trx, zone.id)));
      checkSteeringLimit([
        values.region_pools ?? lb.region_pools,
        values.country_pools ?? lb.country_pools,
        values.location_pools ?? lb.location_pools,
      ]);
      if (values.hostname !== undefined && values.hostname !== lb.hostname) {
        await this.claimHostname(trx, zone.id, values.hostname, lb.id);
      }
      return { value: loadBalancerView(await this.repo.update(trx, lb.id, values)), changed: true };
    });
  }

  async delete(userId: number, zoneId: number, lbId: number): Promise<void> {
    await this.changes.apply(userId, zoneId, async (trx, zone) => {
      const lb = await this.repo.find(zone.id, lbId, trx);
      if (!lb) throw notFound(LB_NOT_FOUND);
      await this.repo.delete(trx, lb.id);
      return { value: undefined, changed: true };
    });
  }

  /** `@` or a name under the zone, resolved as record names are; wildcards are refused. */
  private resolveHostname(input: string, domain: string): string {
    const resolved = resolveRecordName(input, domain);
    if (!resolved.ok) throw invalidField(['body', 'hostname'], resolved.reason, input);
    if (resolved.name.startsWith('*.') || resolved.name === '*') {
      throw invalidField(['body', 'hostname'], 'A load balancer hostname cannot be a wildcard', input);
    }
    return resolved.name;
  }

  private async claimHostname(
    trx: Transaction<DnsTables>,
    zoneId: number,
    hostname: string,
    exceptId: number | null,
  ): Promise<void> {
    if (await this.repo.hostnameTaken(trx, zoneId, hostname, exceptId)) throw conflict(HOSTNAME_OWNED);
    if (await this.repo.hasAddressRecords(trx, zoneId, hostname)) throw conflict(HOSTNAME_HAS_RECORDS);
  }
}
