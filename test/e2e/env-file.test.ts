/**
 * `.env` in the working directory, as `.env.example` says: the product reads it at start, says
 * which file it read, and a variable already set in the environment wins over the file.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { killProductProcesses, startProcess } from '../../src/testing/product-process.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'dns-env-file-'));

afterAll(async () => {
  await killProductProcesses();
  rmSync(dir, { recursive: true, force: true });
});

describe('the .env file', () => {
  it('is read at start, names itself in the log, and never overrides a set variable', async () => {
    const dataDir = path.join(dir, 'data-from-env-file');
    // LOG_LEVEL=silent from the file would hide every line: the environment's info must win.
    writeFileSync(path.join(dir, '.env'), `# local settings\nDATA_DIR=${dataDir}\nLOG_LEVEL=silent\n`);
    const proc = startProcess({ LOG_LEVEL: 'info' }, 'tsx', { cwd: dir });
    const read = await proc.waitFor((l) => l.msg === 'environment file read', 90_000);
    expect(read.file).toBe(path.join(dir, '.env'));
    const url = String((await proc.waitFor((l) => l.msg === 'API listening', 90_000)).url);
    expect((await fetch(`${url}/api/v1/locations`)).status).toBe(200);
    // DATA_DIR came from the file: the embedded database lives there, not in ./data.
    expect(existsSync(dataDir)).toBe(true);
    expect(existsSync(path.join(dir, 'data'))).toBe(false);
    proc.child.kill('SIGINT');
    expect(await proc.exited).toBe(0);
  }, 120_000);

  it('is read by npm run migrate too, so it reaches the same database', async () => {
    const cwd = path.join(dir, 'migrate');
    mkdirSync(cwd);
    const dataDir = path.join(cwd, 'data-from-env-file');
    writeFileSync(path.join(cwd, '.env'), `DATA_DIR=${dataDir}\n`);
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const tsx = pathToFileURL(path.join(root, 'node_modules/tsx/dist/loader.mjs')).href;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', tsx, path.join(root, 'src/apps/migrate.ts')],
      { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME ?? root } },
    );
    expect(stdout).toMatch(/^applied: /);
    expect(existsSync(dataDir)).toBe(true);
  }, 120_000);
});
