import type { Runtime } from '../../../kernel/runtime/runtime.ts';
import { loadBalancingContext } from '../load-balancing-context.ts';
import { memberHealthChanged } from '../load-balancing-events.ts';
import type { LoadBalancingPublishing } from '../load-balancing-interfaces.ts';
import { SteeringLoader } from './steering-loader.ts';
import { SteeringRepository } from './steering-repository.ts';

/** What a DNS node reads of load balancing, over `runtime` (in a DNS worker, its own). */
export function createLoadBalancingPublishing(runtime: Runtime): LoadBalancingPublishing {
  const ctx = loadBalancingContext(runtime);
  const repo = new SteeringRepository(ctx.db);
  return {
    steering: new SteeringLoader(repo),
    memberHealth: () => repo.memberHealth(),
    onMemberHealthChanged: (handler) => ctx.events.subscribe(memberHealthChanged, handler),
  };
}
