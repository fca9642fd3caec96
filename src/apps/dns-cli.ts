import type { Runtime } from '../kernel/runtime/runtime.ts';
import { zoneTree, type ZoneTarget } from '../modules/dns/index.ts';
import { accountByEmail } from '../modules/identity/index.ts';
import { orgWithOwner } from '../modules/orgs/index.ts';
import { exitWithUsage, runCliCommand } from './cli-runtime.ts';

/**
 * Platform staff's commands on DNS zones, against the configured database (cli-runtime.ts):
 * - `check-zones` lists the zones that break the zone-tree rules (a public suffix held by an
 *   account; a zone inside another holder's), one a line; it changes nothing (exit 0);
 * - `transfer-zone <zone> <account|org>` moves a zone (and the zones below it of the same
 *   holder) to the account with that email (it has an `@`) or the organization with that slug,
 *   audited as `dns.zone.transfer`; a refusal says why (exit 1).
 */
const USAGE = 'usage: npm run dns -- check-zones | transfer-zone <zone> <account-email|org-slug>';

const [command, zone, to] = process.argv.slice(2);
const ok =
  (command === 'check-zones' && zone === undefined) ||
  (command === 'transfer-zone' && zone !== undefined && to !== undefined);
if (!ok) exitWithUsage(USAGE);

async function targetOf(runtime: Runtime, name: string): Promise<ZoneTarget> {
  if (name.includes('@')) {
    const account = await accountByEmail(runtime, name);
    if (account === null) throw new Error(`${name}: no such account`);
    return { userId: account.id, orgId: null, label: `account ${account.email}` };
  }
  const org = await orgWithOwner(runtime, name);
  if (org === null) throw new Error(`${name}: no such organization`);
  if (org.status !== 'active') throw new Error(`${name}: the organization is ${org.status}`);
  return { userId: org.ownerUserId, orgId: org.id, label: `organization ${org.slug}` };
}

await runCliCommand(async (runtime) => {
  const tree = zoneTree(runtime);
  if (command !== 'check-zones') return tree.transfer(zone!, await targetOf(runtime, to!));
  const problems = await tree.check();
  return [...problems, `${problems.length} zone problem(s); nothing changed`].join('\n');
});
