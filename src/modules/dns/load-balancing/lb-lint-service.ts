/**
 * The linter (lb-linter.ts) over a zone's stored configuration: the zone's findings, one load
 * balancer's or one pool's (the create and update answers carry them as `warnings`).
 */
import type { Kysely } from 'kysely';
import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { loadBalancerNotFound, poolNotFound } from '../dns-errors.ts';
import type { DnsTables } from '../dns-tables.ts';
import { loadSteering } from '../publishing/steering-loader.ts';
import type { ZonesRepository } from '../zones/zones-repository.ts';
import { lintLoadBalancer, lintPool, lintZone, type LintFinding, type LintInput } from './lb-linter.ts';
import type { MembersRepository } from './members-repository.ts';

export class LoadBalancingLintService {
  constructor(
    private readonly db: Kysely<DnsTables>,
    private readonly zones: ZonesRepository,
    private readonly members: MembersRepository,
    private readonly deploymentPops: ReadonlySet<string>,
  ) {}

  private async input(zoneId: number): Promise<LintInput> {
    const steering = (await loadSteering(this.db, zoneId)).get(zoneId);
    const modes = new Map((await this.members.listOfZone(zoneId)).map((m) => [Number(m.id), m.health_mode]));
    return {
      loadBalancers: steering?.loadBalancers ?? [],
      pools: steering?.pools ?? [],
      healthModeOf: (id) => modes.get(id) ?? 'none',
      deploymentPops: this.deploymentPops,
    };
  }

  async zone(owner: OwnerScope, zoneId: number): Promise<LintFinding[]> {
    const zone = await this.zones.findAccessible(owner, zoneId);
    return lintZone(await this.input(zone.id));
  }

  async loadBalancer(owner: OwnerScope, zoneId: number, lbId: number): Promise<LintFinding[]> {
    const zone = await this.zones.findAccessible(owner, zoneId);
    return this.ofLoadBalancer(zone.id, lbId);
  }

  /** One load balancer's findings, its zone's ownership already checked. */
  async ofLoadBalancer(zoneId: number, lbId: number): Promise<LintFinding[]> {
    const input = await this.input(zoneId);
    const lb = input.loadBalancers.find((l) => l.id === lbId);
    if (lb === undefined) throw loadBalancerNotFound();
    return lintLoadBalancer(lb, input);
  }

  /** One pool's findings (and those of the load balancers using it), ownership already checked. */
  async ofPool(zoneId: number, poolId: number): Promise<LintFinding[]> {
    const input = await this.input(zoneId);
    const pool = input.pools.find((p) => p.id === poolId);
    if (pool === undefined) throw poolNotFound();
    return lintPool(pool, input);
  }
}
