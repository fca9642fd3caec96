import { readFile } from 'node:fs/promises';
import { checkCatalogFile, importCheckedCatalogFile } from '../modules/catalog/index.ts';

/**
 * `npm run catalog -- import <file>` replaces the part of the catalogue the file holds (its
 * `kind`), against the configured database (DATABASE_URL, or the embedded one in DATA_DIR: stop
 * `npm start` first); `check <file>` only checks it, without a database. A file with problems
 * changes nothing and answers one line per problem (exit 1).
 */
const USAGE = 'usage: npm run catalog -- import <file> | check <file>';

const [command, file] = process.argv.slice(2);
if ((command !== 'import' && command !== 'check') || file === undefined) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
  process.stderr.write(`${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}\n`);
  process.exit(2);
});
const fail = (problems: readonly string[]): void => {
  for (const p of problems) process.stderr.write(`${file}: ${p}\n`);
  process.exitCode = 1;
};
const checked = checkCatalogFile(text);
if (!checked.ok) fail(checked.problems);
else if (command === 'check') process.stdout.write(`${file}: ${checked.file.kind}, no problems\n`);
else {
  // Loaded only to import: checking a file needs no database (and starts faster without).
  const { runCliCommand } = await import('./cli-runtime.ts');
  await runCliCommand(async (runtime) => {
    const result = await importCheckedCatalogFile(runtime, checked.file);
    if (!result.ok) {
      fail(result.problems);
      return '';
    }
    const { kind, written, removed } = result.summary;
    const counts = Object.entries(written).map(([t, n]) => `${t} ${n}`);
    const gone = Object.entries(removed)
      .filter(([, n]) => n > 0)
      .map(([t, n]) => `${t} ${n}`);
    return `${file}: imported ${kind}: ${counts.join(', ')}${gone.length > 0 ? `; removed ${gone.join(', ')}` : ''}`;
  });
}
