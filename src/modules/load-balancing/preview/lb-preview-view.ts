import type { CascadeHit, SteeringReason } from '../../../dns/index.ts';

/** The answer of POST .../load-balancers/{lb_id}/preview: the steering decision and its trace. */
export interface PreviewView {
  cascade_hit: CascadeHit;
  reason: SteeringReason;
  servfail: boolean;
  pool: { id: number; name: string } | null;
  answers: { type: 'A' | 'AAAA'; address: string; member_id: number }[];
  ttl: number;
  context: {
    source: string;
    pop: string;
    country: string | null;
    region: string | null;
    client_ip: string | null;
  };
  trace: {
    stage: string;
    key: string | null;
    pools: { id: number; name: string; skipped: string | null; distance_km?: number | null }[];
  }[];
}
