import { Type } from 'typebox';

/** Path parameters of every route under /zones/{zone_id}/load-balancers/{lb_id}. */
export const LoadBalancerParams = Type.Object({
  zone_id: Type.Integer({ minimum: 1 }),
  lb_id: Type.Integer({ minimum: 1 }),
});
