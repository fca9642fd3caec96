/**
 * `.env` in the working directory, as `.env.example` says: the product reads it at start, says
 * which file it read, and a variable already set in the environment wins over the file.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
});
