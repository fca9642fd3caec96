import type { Transaction } from 'kysely';
import type { OrgDirectory } from '../../orgs/index.ts';

/** Billing modes in which the platform takes part in the sale and its fee (docs/commerce.md). */
const FEE_MODES: ReadonlySet<string> = new Set(['platform_mor', 'hybrid']);

/**
 * The fee percent the platform takes of the organization's captures ("0" when its billing mode
 * takes none), read through the transaction of the capture: the ledger's reactions run inside a
 * checkout's transaction, which on the embedded database holds its one connection.
 */
export async function feePercentWithin(
  orgs: OrgDirectory,
  trx: Pick<Transaction<unknown>, 'isTransaction'>,
  orgId: number,
): Promise<string> {
  const org = await orgs.byIdWithin(trx, orgId);
  return org !== null && FEE_MODES.has(org.billingMode) ? org.platformFeePercent : '0';
}
