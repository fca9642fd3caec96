import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('npm start', () => {
  it('serves the API on the embedded default and exits 0 on SIGINT', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'dns-start-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/apps/main.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        API_PORT: '0',
        DNS_PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const m = /"url":"(http:\/\/[^"]+)","msg":"API listening"/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.on('exit', (code) => reject(new Error(`exited early with ${code}: ${out}`)));
      });
      const res = await fetch(`${url}/api/v1/locations`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as unknown[]).length).toBeGreaterThan(30);
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
