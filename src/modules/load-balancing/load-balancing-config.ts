import { isIP } from 'node:net';
import type { HealthPolicy } from '../../health/health-decision.ts';
import { defineConfigSection } from '../../kernel/config/config-section.ts';

/** The load-balancing module's settings: health checks of origin members. */
export interface LoadBalancingSettings {
  /** Members and probes may target private and loopback addresses (tests, private deployments). */
  readonly healthAllowPrivateTargets: boolean;
  /** Seconds between two probes of a member: 60 in production; shorter only in tests. */
  readonly healthCheckIntervalS: number;
  /** How probes from several PoPs and in a row become a member's status (HEALTH_QUORUM/FALL/RISE). */
  readonly healthPolicy: HealthPolicy;
  /** Local addresses probes leave from (one per family at most); none → the system's choice. */
  readonly healthSourceAddresses: readonly string[];
}

export const loadBalancingConfig = defineConfigSection<LoadBalancingSettings>('load-balancing', (env) => {
  const quorumText = env.str('HEALTH_QUORUM', 'majority').toLowerCase();
  const quorum = quorumText === 'majority' ? 'majority' : Number(quorumText);
  if (quorum !== 'majority' && !(Number.isInteger(quorum) && quorum >= 1 && quorum <= 100))
    env.problem(`HEALTH_QUORUM must be "majority" or a number of PoPs from 1 to 100, got "${quorumText}"`);
  const sources = env.list('HEALTH_SOURCE_ADDRESSES', '');
  for (const a of sources) if (isIP(a) === 0) env.problem(`HEALTH_SOURCE_ADDRESSES: "${a}" is no IP address`);
  if (new Set(sources.map((a) => isIP(a))).size < sources.length)
    env.problem('HEALTH_SOURCE_ADDRESSES takes at most one IPv4 and one IPv6 address');
  return {
    healthAllowPrivateTargets: env.bool('HEALTH_ALLOW_PRIVATE_TARGETS', false),
    healthCheckIntervalS: env.int('HEALTH_CHECK_INTERVAL_S', 60, 1, 3600),
    healthPolicy: {
      quorum: quorum === 'majority' || Number.isInteger(quorum) ? quorum : 'majority',
      // One failed check moves a member down and one passed check brings it back; flap damping
      // is opted into here for the deployment, or per pool (health_fall, health_rise).
      fall: env.int('HEALTH_FALL', 1, 1, 10),
      rise: env.int('HEALTH_RISE', 1, 1, 10),
    },
    healthSourceAddresses: sources,
  };
});
