import { reactivateOrganization } from '../modules/orgs/index.ts';
import { exitWithUsage, runCliCommand } from './cli-runtime.ts';

/**
 * `npm run org -- reactivate <slug>`: platform staff's commands on organizations, against the
 * configured database (cli-runtime.ts).
 */
const USAGE = 'usage: npm run org -- reactivate <slug>';

const [command, slug] = process.argv.slice(2);
if (command !== 'reactivate' || slug === undefined) exitWithUsage(USAGE);
await runCliCommand((runtime) => reactivateOrganization(runtime, slug));
