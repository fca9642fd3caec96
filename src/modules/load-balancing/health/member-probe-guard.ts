import type { TargetGuard } from '../../../health/target-guard.ts';
import { classifyAddress, isAllowedTarget } from '../../../net/address-class.ts';

/**
 * The probes' connect-time rule, from the same classifier the member API validates addresses
 * with: `reserved` never, `private`/`loopback` only with HEALTH_ALLOW_PRIVATE_TARGETS.
 */
export function memberProbeGuard(allowPrivate: boolean): TargetGuard {
  return (address) => {
    const cls = classifyAddress(address);
    return cls !== null && isAllowedTarget(cls, allowPrivate);
  };
}
