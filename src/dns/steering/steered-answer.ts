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
import { createReusableDecision, steer } from './steering-engine.ts';

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

/** No health reports: every member `unknown`, i.e. healthy. */
export const ALL_UNKNOWN_HEALTH: HealthView = { statusOf: () => 'unknown' };

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
  return steer(
    compiled.lb,
    compiled.poolsById,
    ctx,
    family,
    runtime.health,
    runtime.random,
    false,
    DNS_DECISION,
  );
}
