import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import {
  lbPoolNameTaken,
  MEMBER_LIMIT,
  memberLimitReached,
  POOL_LIMIT,
  poolInUse,
  poolLimitReached,
  poolNameTaken,
  poolNotFound,
} from '../load-balancing-errors.ts';
import type { Transaction } from 'kysely';
import type { Static } from 'typebox';
import { locationByCode } from '../../../geo/geo-data.ts';
import {
  invalidField,
  invalidFields,
  type AppError,
  type ValidationProblem,
} from '../../../kernel/errors/app-error.ts';
import type { LoadBalancersRepository } from '../load-balancers/load-balancers-repository.ts';
import type { LoadBalancersService } from '../load-balancers/load-balancers-service.ts';
import { referencedPools } from '../load-balancers/steering-input.ts';
import { prepareMember, type MemberValues } from './member-input.ts';
import type { MembersRepository } from './members-repository.ts';
import type { LoadBalancingTables, PoolRow } from '../load-balancing-tables.ts';
import { inZone, type ZoneInChange } from '../shared/zone-work.ts';
import type { ZoneAccess } from '../../dns/index.ts';
import { poolView, type PoolView } from './pool-view.ts';
import type { PoolValues, PoolsRepository } from './pools-repository.ts';
import type { CreateLbPoolBody, UpdatePoolBody } from './pools-schemas.ts';

export type CreatePool = Static<typeof CreateLbPoolBody>;
export type UpdatePool = Static<typeof UpdatePoolBody>;

/** The two addresses of the pools: the same pools, each family with its own duplicate-name message. */
export interface PoolFamily {
  readonly nameTaken: () => AppError;
}
export const POOLS_FAMILY: PoolFamily = { nameTaken: poolNameTaken };
export const LB_POOLS_FAMILY: PoolFamily = { nameTaken: lbPoolNameTaken };

export class PoolsService {
  constructor(
    private readonly pools: PoolsRepository,
    private readonly members: MembersRepository,
    private readonly lbs: LoadBalancersRepository,
    private readonly loadBalancers: LoadBalancersService,
    private readonly zones: ZoneAccess,
    private readonly allowPrivateTargets: boolean,
  ) {}

  async list(owner: OwnerScope, zoneId: number): Promise<PoolView[]> {
    const zone = await this.zones.find(owner, zoneId);
    const [pools, members, lbs] = await Promise.all([
      this.pools.list(zone.id),
      this.members.listOfZone(zone.id),
      this.lbs.list(zone.id),
    ]);
    return pools.map((p) => poolView(p, members, lbs));
  }

  async get(owner: OwnerScope, zoneId: number, poolId: number): Promise<PoolView> {
    const zone = await this.zones.find(owner, zoneId);
    const pool = await this.pools.find(zone.id, poolId);
    if (!pool) throw poolNotFound();
    return this.view(pool);
  }

  /** Creates the pool, its inline members and (with `hostname`) a load balancer, all or nothing. */
  async create(owner: OwnerScope, zoneId: number, body: CreatePool, family: PoolFamily): Promise<PoolView> {
    return inZone(this.zones, owner, zoneId, async (trx, zone) => {
      const pools = this.pools.withTx(trx);
      const location = this.locationCode(body.primary_location_code ?? null);
      const members = this.prepareMembers(body.members ?? []);
      if ((await pools.count(zone.id)) >= POOL_LIMIT) throw poolLimitReached();
      if (members.length > MEMBER_LIMIT) throw memberLimitReached();
      if (await pools.nameTaken(zone.id, body.name, null)) throw family.nameTaken();
      const values: PoolValues = {
        name: body.name,
        description: body.description ?? null,
        algorithm: body.algorithm ?? 'weighted_rr',
        ttl: body.ttl ?? 30,
        session_affinity: body.session_affinity ?? 'none',
        primary_location_code: location,
        enabled: body.enabled ?? true,
        health_fall: body.health_fall ?? null,
        health_rise: body.health_rise ?? null,
      };
      const pool = await pools.insert(zone.id, values);
      const poolMembers = this.members.withTx(trx);
      for (const m of members) await poolMembers.insert(zone.id, pool.id, m);
      if (body.hostname !== undefined) await this.createLoadBalancer(trx, zone, pool, body.hostname);
      return { value: await this.view(pool, trx), changed: true };
    });
  }

  async update(
    owner: OwnerScope,
    zoneId: number,
    poolId: number,
    patch: UpdatePool,
    family: PoolFamily,
  ): Promise<PoolView> {
    return inZone(this.zones, owner, zoneId, async (trx, zone) => {
      const pools = this.pools.withTx(trx);
      const pool = await pools.find(zone.id, poolId);
      if (!pool) throw poolNotFound();
      const values: Partial<PoolValues> = {};
      for (const key of [
        'name',
        'description',
        'algorithm',
        'ttl',
        'session_affinity',
        'enabled',
        'health_fall',
        'health_rise',
      ] as const) {
        if (patch[key] !== undefined) (values as Record<string, unknown>)[key] = patch[key];
      }
      if (patch.primary_location_code !== undefined) {
        values.primary_location_code = this.locationCode(patch.primary_location_code);
      }
      if (values.name !== undefined && (await pools.nameTaken(zone.id, values.name, pool.id))) {
        throw family.nameTaken();
      }
      const updated = await pools.update(pool.id, values);
      return { value: await this.view(updated, trx), changed: true };
    });
  }

  async delete(owner: OwnerScope, zoneId: number, poolId: number): Promise<void> {
    await inZone(this.zones, owner, zoneId, async (trx, zone) => {
      const pools = this.pools.withTx(trx);
      const pool = await pools.find(zone.id, poolId);
      if (!pool) throw poolNotFound();
      const lbs = await this.lbs.withTx(trx).list(zone.id);
      if (lbs.some((lb) => referencedPools(lb).has(Number(pool.id)))) throw poolInUse();
      await pools.delete(pool.id);
      return { value: undefined, changed: true };
    });
  }

  /** The pool with its members and load balancers, read through `trx` inside a zone change. */
  private async view(pool: PoolRow, trx?: Transaction<LoadBalancingTables>): Promise<PoolView> {
    const members = trx === undefined ? this.members : this.members.withTx(trx);
    const lbs = trx === undefined ? this.lbs : this.lbs.withTx(trx);
    const [memberRows, lbRows] = await Promise.all([members.listOfPool(pool.id), lbs.list(pool.zone_id)]);
    return poolView(pool, memberRows, lbRows);
  }

  /** A known location code (any case) → its stored form; 422 otherwise. */
  private locationCode(code: string | null): string | null {
    if (code === null) return null;
    const location = locationByCode(code.trim());
    if (!location) {
      throw invalidField(['body', 'primary_location_code'], `Unknown location code: ${code}`, code);
    }
    return location.code;
  }

  private prepareMembers(bodies: CreatePool['members'] & object): MemberValues[] {
    const problems: ValidationProblem[] = [];
    const out: MemberValues[] = [];
    bodies.forEach((body, i) => {
      const prepared = prepareMember(body, this.allowPrivateTargets, ['body', 'members', i]);
      if (Array.isArray(prepared)) problems.push(...prepared);
      else out.push(prepared);
    });
    if (problems.length > 0) throw invalidFields(problems);
    return out;
  }

  /** The /lb-pools shortcut: a load balancer named after the hostname, answering from this pool. */
  private async createLoadBalancer(
    trx: Transaction<LoadBalancingTables>,
    zone: ZoneInChange,
    pool: PoolRow,
    hostname: string,
  ): Promise<void> {
    await this.loadBalancers.createIn(trx, zone, {
      hostname,
      default_pools: [Number(pool.id)],
      ttl: pool.ttl,
      session_affinity: pool.session_affinity as 'none' | 'client_ip',
    });
  }
}
