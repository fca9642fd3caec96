import type { IpLocator } from '../../geo/ip-locator.ts';
import type { ClientSubnet } from '../wire/message/client-subnet.ts';
import {
  clientSubnetText,
  resolveClientContext,
  resolveDnsClientContext,
  ReusableClientContext,
} from './client-location.ts';
import type { ClientContext } from './client-location.ts';
import type { HealthView } from './steering-config.ts';
import type { LbAnswerCounts } from './lb-answer-counts.ts';
import type { CompiledLoadBalancer } from './steering-compiler.ts';
import type { SteeringDecision } from './steering-decision.ts';
import { createReusableDecision, lastSteerDependedOnClient, steer } from './steering-engine.ts';

/**
 * The DNS side of steering: query → client context → steer(). The decision comes from the same
 * steer() the preview API calls; the answer floor's steering stage (answer/steering-stage.ts)
 * turns it into pre-encoded RRsets.
 */

/** What a DNS node steers with; one per handler. */
export interface SteeringRuntime {
  readonly health: HealthView;
  /** This node's location code (config POP). */
  readonly pop: string;
  readonly locator: IpLocator | null;
  readonly random: () => number;
  /** Where answers at load balancers are counted (metrics); null: not counted. */
  readonly answers: LbAnswerCounts | null;
}

/** No health reports: every member `unknown`, i.e. healthy; it never changes (generation 0). */
export const ALL_UNKNOWN_HEALTH: HealthView = { statusOf: () => 'unknown', generation: 0 };

/** Text of the ECS address (bits beyond the source prefix are already zero). */
export function clientSubnetAddressText(ecs: ClientSubnet): string {
  return clientSubnetText(ecs);
}

/** The client context of a DNS query, exactly as preview builds it from the same inputs. */
export function dnsClientContext(
  compiled: CompiledLoadBalancer,
  runtime: SteeringRuntime,
  ecs: ClientSubnet,
  clientAddress: string | null,
): ClientContext {
  return resolveClientContext({
    strategy: compiled.lb.locationStrategy,
    pop: runtime.pop,
    clientIp: clientAddress,
    ecs: ecs.present ? { address: clientSubnetAddressText(ecs), sourcePrefix: ecs.sourcePrefix } : null,
    locator: runtime.locator,
  });
}

// steer() is synchronous and keeps no reference to the context: one object serves every query.
const DNS_CONTEXT = new ReusableClientContext();
// Likewise the decision: the steering stage (answer/answer-stages.ts) reads it before the next query.
const DNS_DECISION = createReusableDecision();

// The runtime's random source, counted: a decision that drew a number is never kept.
let drawFrom: () => number = Math.random;
let draws = 0;
const countedRandom = (): number => {
  draws++;
  return drawFrom();
};
let lastKeepable = false;

/**
 * Whether the last steerDnsQuery() decision may be kept in an answer cache keyed by the query's
 * bytes, i.e. whether it is a function of the query's bytes, the zone's snapshot and the health
 * generation alone:
 * - no random draw (a `random` policy among two or more usable pools, a weighted choice among two
 *   or more members of a pool without session affinity): each query draws again, so such answers
 *   are never kept (keeping one would freeze a single draw);
 * - not dependent on the resolver's address: a decision that read the client's location or hashed
 *   its subnet is kept only when that client came from the query's ECS option (which is in the
 *   key); decisions from the PoP's location or from ordered pool lists depend on neither;
 * - a health view with a generation (HealthView.generation), which the cache compares on a hit.
 * Geo, proximity, failover and off policies, and affinity-keyed choices, are kept on these terms.
 */
export function lastDnsDecisionKeepable(): boolean {
  return lastKeepable;
}

/**
 * The decision for a DNS query. The returned object (and its context) is reused by the next call:
 * read it before steering again.
 */
export function steerDnsQuery(
  compiled: CompiledLoadBalancer,
  family: 4 | 6,
  runtime: SteeringRuntime,
  ecs: ClientSubnet,
  clientAddress: string | null,
): SteeringDecision {
  const ctx = resolveDnsClientContext(
    DNS_CONTEXT,
    compiled.lb.locationStrategy,
    runtime.pop,
    clientAddress,
    ecs,
    runtime.locator,
  );
  drawFrom = runtime.random;
  draws = 0;
  const decision = steer(
    compiled.lb,
    compiled.poolsById,
    ctx,
    family,
    runtime.health,
    countedRandom,
    false,
    DNS_DECISION,
  );
  lastKeepable =
    draws === 0 && runtime.health.generation !== undefined && (ctx.fromEcs || !lastSteerDependedOnClient());
  return decision;
}
