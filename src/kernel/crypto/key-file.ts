import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A secret kept in DATA_DIR (mode 0600), made on first start: answers the file's content, or
 * writes `make()` and answers that. Several processes of one node may start together: the file is
 * written whole under a name of its own and linked in place, so whoever wins, all read the same,
 * and no reader sees half a file.
 */
export function readOrCreateKeyFile(dataDir: string, name: string, make: () => string): string {
  const file = path.join(dataDir, name);
  const read = (): string | null => {
    try {
      const text = readFileSync(file, 'utf8').trim();
      return text === '' ? null : text;
    } catch {
      return null;
    }
  };
  const existing = read();
  if (existing !== null) return existing;
  mkdirSync(dataDir, { recursive: true });
  const tmp = `${file}.${process.pid}`;
  writeFileSync(tmp, make(), { mode: 0o600 });
  try {
    linkSync(tmp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(tmp, { force: true });
  }
  const made = read();
  if (made === null) throw new Error(`${file} is empty`);
  return made;
}
