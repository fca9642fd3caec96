/**
 * The linter (lb-linter.ts) over a zone's stored configuration: the zone's findings, one load
 * balancer's or one pool's (the create and update answers carry them as `warnings`).
 */
import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { loadBalancerNotFound, poolNotFound } from '../load-balancing-errors.ts';
import type { SteeringLoader } from '../steering/steering-loader.ts';
import type { ZoneAccess } from '../../dns/index.ts';
import { lintLoadBalancer, lintPool, lintZone, type LintFinding, type LintInput } from './lb-linter.ts';

export class LoadBalancingLintService {
  constructor(
    private readonly steering: SteeringLoader,
    private readonly zones: ZoneAccess,
    private readonly deploymentPops: ReadonlySet<string>,
  ) {}

  private async input(zoneId: number): Promise<LintInput> {
    const steering = await this.steering.ofZone(zoneId);
    const modes = await this.steering.healthModes(zoneId);
    return {
      loadBalancers: steering.loadBalancers,
      pools: steering.pools,
      healthModeOf: (id) => modes.get(id) ?? 'none',
      deploymentPops: this.deploymentPops,
    };
  }

  async zone(owner: OwnerScope, zoneId: number): Promise<LintFinding[]> {
    const zone = await this.zones.find(owner, zoneId);
    return lintZone(await this.input(zone.id));
  }

  async loadBalancer(owner: OwnerScope, zoneId: number, lbId: number): Promise<LintFinding[]> {
    const zone = await this.zones.find(owner, zoneId);
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
