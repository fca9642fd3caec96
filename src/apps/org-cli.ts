import { issuePartnerKey, revokePartnerKeys } from '../modules/keys/index.ts';
import { reactivateOrganization } from '../modules/orgs/index.ts';
import { exitWithUsage, runCliCommand } from './cli-runtime.ts';

/**
 * `npm run org -- <command>`: platform staff's commands on organizations, against the configured
 * database (cli-runtime.ts). A partner key is printed once, on its own line; only its digest is kept.
 */
const USAGE = [
  'usage: npm run org -- reactivate <slug>',
  '       npm run org -- partner-key <org_slug> <partner>',
  '       npm run org -- partner-key-revoke <org_slug> <partner> [<key_id>]',
].join('\n');

const [command, slug, partner, keyId] = process.argv.slice(2);
if (command === 'reactivate' && slug !== undefined) {
  await runCliCommand((runtime) => reactivateOrganization(runtime, slug));
} else if (command === 'partner-key' && slug !== undefined && partner !== undefined && keyId === undefined) {
  await runCliCommand(async (runtime) => {
    const key = await issuePartnerKey(runtime, slug, partner);
    return `partner key ${key.id} for ${slug}/${partner} (shown once):\n${key.raw}`;
  });
} else if (
  command === 'partner-key-revoke' &&
  slug !== undefined &&
  partner !== undefined &&
  (keyId === undefined || /^[1-9][0-9]{0,15}$/.test(keyId))
) {
  await runCliCommand(async (runtime) => {
    const ids = await revokePartnerKeys(runtime, slug, partner, keyId === undefined ? null : Number(keyId));
    return `revoked partner key${ids.length === 1 ? '' : 's'} ${ids.join(', ')} of ${slug}/${partner}`;
  });
} else {
  exitWithUsage(USAGE);
}
