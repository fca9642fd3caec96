import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { Boost } from '../gameproxy-tables.ts';

/**
 * A claim's answer: the grant as recorded — or, for a dry run, the grant it would be (claim_id as
 * sent, or null; nothing recorded).
 */
export type BoostView = JsonView<
  Pick<Boost, 'server_address' | 'service_id' | 'memory_mb' | 'expires_at'> & {
    claim_id: string | null;
    dry_run: boolean;
  }
>;

export function boostView(
  boost: Omit<Boost, 'id' | 'claim_id'> & { claim_id: string | null },
  dryRun: boolean,
): BoostView {
  return {
    claim_id: boost.claim_id,
    server_address: boost.server_address,
    service_id: boost.service_id,
    memory_mb: boost.memory_mb,
    expires_at: boost.expires_at.toISOString(),
    dry_run: dryRun,
  };
}
