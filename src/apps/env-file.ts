import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Reads `.env` from the working directory into `env` when the file is there (`.env.example` says
 * "copy to .env"). Node's parser (`process.loadEnvFile`, Node 20.12+) sets only variables that are
 * not set yet, so the environment a process is started with always wins over the file.
 * Returns the file's absolute path, or null when there is none.
 */
export function loadEnvFile(cwd: string = process.cwd()): string | null {
  const file = path.resolve(cwd, '.env');
  if (!existsSync(file)) return null;
  process.loadEnvFile(file);
  return file;
}
