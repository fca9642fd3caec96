import { loadConfig } from '../kernel/config/load-config.ts';
import { migrate } from '../kernel/db/run-migrations.ts';
import { openDatabase } from '../kernel/db/open-database.ts';
import { loadEnvFile } from './env-file.ts';

/** `npm run migrate`: apply pending migrations to DATABASE_URL (or the embedded database) and exit. */
// The same .env as `npm start`, so both reach the same database.
loadEnvFile();
const config = loadConfig();
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
try {
  const applied = await migrate(database);
  process.stdout.write(applied.length > 0 ? `applied: ${applied.join(', ')}\n` : 'nothing to apply\n');
} finally {
  await database.close();
}
