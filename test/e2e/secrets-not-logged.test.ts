import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { authenticatorCode } from '../../src/testing/authenticator-app.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Runs the product as `npm start` does, at the most talkative log level, through every flow that
 * handles a secret (passwords, refresh and access tokens, TOTP secret and codes, recovery codes,
 * MFA and reset tokens, a 422 on a password), then reads the whole log for any of them.
 */
describe('secrets never reach the log', () => {
  it('a full run at LOG_LEVEL=trace holds no password, token or TOTP secret', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'secrets-log-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/apps/main.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        OBJECT_STORAGE_LOCAL: 'off',
        COMPUTE_LOCAL: 'off',
        API_PORT: '0',
        DNS_PORT: '0',
        EDGE_PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'trace',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout.on('data', (c: Buffer) => (log += c.toString()));
    child.stderr.on('data', (c: Buffer) => (log += c.toString()));
    const secrets: string[] = [];
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setInterval(() => {
          const m = /"url":"(http:\/\/[^"]+)","msg":"API listening"/.exec(log);
          if (m) {
            clearInterval(timer);
            resolve(m[1]!);
          }
        }, 50);
        child.on('exit', (code) => reject(new Error(`exited early with ${code}: ${log}`)));
      });
      const call = async (method: string, p: string, body?: unknown, token?: string) => {
        const res = await fetch(`${url}/api/v1${p}`, {
          method,
          headers: {
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
        const text = await res.text();
        return { status: res.status, body: text === '' ? null : JSON.parse(text) };
      };
      const password = 'Sekrit-Pass-4-Logs';
      const newPassword = 'Another-Sekrit-7';
      const shortPassword = 'Short1';
      secrets.push(password, newPassword, shortPassword);
      expect((await call('POST', '/auth/register', { email: 'logs@example.com', password })).status).toBe(
        201,
      );
      expect(
        (await call('POST', '/auth/register', { email: 'short@example.com', password: shortPassword }))
          .status,
      ).toBe(422);
      expect(
        (await call('POST', '/auth/login', { email: 'logs@example.com', password: 'wrong-Sekrit-9' })).status,
      ).toBe(401);
      secrets.push('wrong-Sekrit-9');
      const login = await call('POST', '/auth/login', { email: 'logs@example.com', password });
      secrets.push(login.body.access_token, login.body.refresh_token);
      const refreshed = await call('POST', '/auth/refresh', { refresh_token: login.body.refresh_token });
      secrets.push(refreshed.body.access_token, refreshed.body.refresh_token);
      const token = refreshed.body.access_token as string;
      const enrol = await call('POST', '/auth/mfa/enable', undefined, token);
      secrets.push(enrol.body.secret);
      const code = await authenticatorCode(enrol.body.secret, Date.now());
      const enabled = await call('POST', '/auth/mfa/enable', { code }, token);
      expect(enabled.status).toBe(200);
      secrets.push(...enabled.body.recovery_codes);
      const challenge = await call('POST', '/auth/login', { email: 'logs@example.com', password });
      secrets.push(challenge.body.mfa_token);
      const verified = await call('POST', '/auth/mfa/verify', {
        mfa_token: challenge.body.mfa_token,
        code: enabled.body.recovery_codes[0],
      });
      expect(verified.status).toBe(200);
      secrets.push(verified.body.access_token, verified.body.refresh_token);
      expect((await call('POST', '/auth/forgot-password', { email: 'logs@example.com' })).status).toBe(200);
      // Without SMTP_URL the mail is an .eml file in DATA_DIR/mail (its path is logged, not its text).
      let eml = '';
      for (let i = 0; i < 400 && eml === ''; i++) {
        const dir = path.join(dataDir, 'mail');
        const files = (() => {
          try {
            return readdirSync(dir).filter((f) => f.endsWith('.eml'));
          } catch {
            return [];
          }
        })();
        if (files.length > 0) eml = readFileSync(path.join(dir, files[0]!), 'utf8');
        else await new Promise((r) => setTimeout(r, 50));
      }
      const resetToken = /reset token with your new password: (\S+)/.exec(
        (await simpleParser(eml)).text ?? '',
      )?.[1];
      expect(resetToken).toBeDefined();
      secrets.push(resetToken!);
      expect(
        (await call('POST', '/auth/reset-password', { token: resetToken, password: newPassword })).status,
      ).toBe(200);
      expect(
        (await call('POST', '/auth/reset-password', { token: resetToken, password: newPassword })).status,
      ).toBe(400);
      const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
    expect(log).toContain('API listening');
    expect(log).toContain('mail written');
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(5);
      expect(log.includes(secret), `log holds a secret: ${secret.slice(0, 4)}…`).toBe(false);
    }
  }, 120_000);
});
