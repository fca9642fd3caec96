import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import {
  hostnameHasRecords,
  hostnameOwned,
  LB_LIMIT,
  loadBalancerLimitReached,
  loadBalancerNotFound,
  RECORD_AT_LB,
} from '../load-balancing-errors.ts';
import type { Transaction } from 'kysely';
import type { Static } from 'typebox';
import { RR_TYPE } from '../../../dns/index.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { NameClaim, NameClaimSource } from '../../dns/index.ts';
import type { LoadBalancingTables, LoadBalancerRow } from '../load-balancing-tables.ts';
import { resolveRecordName } from '../../dns/index.ts';
import { joinTransaction } from '../../../kernel/db/unit-of-work.ts';
import { inZone, type ZoneInChange } from '../shared/zone-work.ts';
import type { ZoneAccess } from '../../dns/index.ts';
import { loadBalancerView, type LoadBalancerView } from './load-balancer-view.ts';
import type { CreateLoadBalancerBody, UpdateLoadBalancerBody } from './load-balancers-schemas.ts';
import type { LoadBalancerValues, LoadBalancersRepository } from './load-balancers-repository.ts';
import { checkSteeringLimit, normaliseSteering } from './steering-input.ts';

export type CreateLoadBalancer = Static<typeof CreateLoadBalancerBody>;
export type UpdateLoadBalancer = Static<typeof UpdateLoadBalancerBody>;

const MAX_NAME = 100;
const ADDRESS_TYPES: ReadonlySet<number> = new Set([RR_TYPE.A, RR_TYPE.AAAA, RR_TYPE.CNAME]);
const LB_CLAIM: NameClaim = { refuse: (type) => (ADDRESS_TYPES.has(type) ? RECORD_AT_LB : null) };

/** Load balancers: a hostname of the zone answered from pools instead of A/AAAA/CNAME records. */
export class LoadBalancersService {
  constructor(
    private readonly repo: LoadBalancersRepository,
    private readonly zones: ZoneAccess,
  ) {}

  /** For the DNS module's name-claim registry: A/AAAA/CNAME records cannot sit at a load balancer's hostname. */
  readonly nameClaims: NameClaimSource = async (zoneId, trx) =>
    new Map(
      (await this.repo.withTx(joinTransaction<LoadBalancingTables>(trx)).hostnames(zoneId)).map((h) => [
        h,
        LB_CLAIM,
      ]),
    );

  async list(owner: OwnerScope, zoneId: number): Promise<LoadBalancerView[]> {
    const zone = await this.zones.find(owner, zoneId);
    return (await this.repo.list(zone.id)).map(loadBalancerView);
  }

  async get(owner: OwnerScope, zoneId: number, lbId: number): Promise<LoadBalancerView> {
    return loadBalancerView(await this.findOwned(owner, zoneId, lbId));
  }

  /** The row, for the preview; 404 for another account's zone or an id not in the zone. */
  async findOwned(owner: OwnerScope, zoneId: number, lbId: number): Promise<LoadBalancerRow> {
    const zone = await this.zones.find(owner, zoneId);
    const lb = await this.repo.find(zone.id, lbId);
    if (!lb) throw loadBalancerNotFound();
    return lb;
  }

  async create(owner: OwnerScope, zoneId: number, body: CreateLoadBalancer): Promise<LoadBalancerView> {
    return inZone(this.zones, owner, zoneId, async (trx, zone) => ({
      value: loadBalancerView(await this.createIn(trx, zone, body)),
      changed: true,
    }));
  }

  /** Creates within a running zone change (the /lb-pools hostname shortcut uses it too). */
  async createIn(
    trx: Transaction<LoadBalancingTables>,
    zone: ZoneInChange,
    body: CreateLoadBalancer,
  ): Promise<LoadBalancerRow> {
    const repo = this.repo.withTx(trx);
    const hostname = this.resolveHostname(body.hostname, zone.domain);
    const steering = normaliseSteering(body, await this.repo.withTx(trx).poolIds(zone.id));
    if ((await repo.count(zone.id)) >= LB_LIMIT) throw loadBalancerLimitReached();
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
    await this.claimHostname(trx, zone, hostname, null);
    return repo.insert(zone.id, values);
  }

  async update(
    owner: OwnerScope,
    zoneId: number,
    lbId: number,
    patch: UpdateLoadBalancer,
  ): Promise<LoadBalancerView> {
    return inZone(this.zones, owner, zoneId, async (trx, zone) => {
      const repo = this.repo.withTx(trx);
      const lb = await repo.find(zone.id, lbId);
      if (!lb) throw loadBalancerNotFound();
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
      Object.assign(values, normaliseSteering(patch, await this.repo.withTx(trx).poolIds(zone.id)));
      checkSteeringLimit([
        values.region_pools ?? lb.region_pools,
        values.country_pools ?? lb.country_pools,
        values.location_pools ?? lb.location_pools,
      ]);
      if (values.hostname !== undefined && values.hostname !== lb.hostname) {
        await this.claimHostname(trx, zone, values.hostname, lb.id);
      }
      return { value: loadBalancerView(await repo.update(lb.id, values)), changed: true };
    });
  }

  async delete(owner: OwnerScope, zoneId: number, lbId: number): Promise<void> {
    await inZone(this.zones, owner, zoneId, async (trx, zone) => {
      const repo = this.repo.withTx(trx);
      const lb = await repo.find(zone.id, lbId);
      if (!lb) throw loadBalancerNotFound();
      await repo.delete(lb.id);
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
    trx: Transaction<LoadBalancingTables>,
    zone: ZoneInChange,
    hostname: string,
    exceptId: number | null,
  ): Promise<void> {
    if (await this.repo.withTx(trx).hostnameTaken(zone.id, hostname, exceptId)) throw hostnameOwned();
    if (await zone.hasRecords(hostname, [...ADDRESS_TYPES])) throw hostnameHasRecords();
  }
}
