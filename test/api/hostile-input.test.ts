import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidField } from '../../src/kernel/errors/app-error.ts';
import { createHttpServer } from '../../src/kernel/http/create-http-server.ts';
import { createLogger } from '../../src/kernel/log/logger.ts';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';

/** One past what any id column (bigint) can hold: the database would refuse it as out of range. */
const HUGE_ID = '99999999999999999999';

describe('HTTP kernel: hostile input', () => {
  let t: TestApp;
  let token: string;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await startTestApp({
      env: { LOG_LEVEL: 'info', API_BODY_LIMIT_BYTES: String(4 * 1024 * 1024) },
      logSink: (line) => lines.push(line),
    });
    token = (await t.signUp()).token;
  });
  afterAll(async () => t?.close());

  it('answers an id beyond the column range with 404 in the path and 422 in the body', async () => {
    for (const path of [`/api/v1/dns/zones/${HUGE_ID}`, `/api/v1/dns/zones/${HUGE_ID}/records`]) {
      const res = await t.request('GET', path, { token });
      expect(res.status, `${path}: ${res.text}`).toBe(404);
      expect(res.body).toEqual({ detail: 'Not Found' });
    }
    const del = await t.request('DELETE', `/api/v1/dns/zones/1/records/${HUGE_ID}`, { token });
    expect(del.status, del.text).toBe(404);
    // The largest id JavaScript holds exactly is still an id: looked up, not found.
    const largest = await t.request('GET', `/api/v1/dns/zones/${Number.MAX_SAFE_INTEGER}`, { token });
    expect(largest.status).toBe(404);
    // Ids that are not ids at all stay 422.
    const zero = await t.request('GET', '/api/v1/dns/zones/0', { token });
    expect(zero.status).toBe(422);
    const text = await t.request('GET', '/api/v1/dns/zones/abc', { token });
    expect(text.status).toBe(422);

    const body = await t.request('POST', '/api/v1/dns/zones', {
      token,
      rawBody: `{"domain": "huge-id.example", "service_id": ${HUGE_ID}}`,
    });
    expect(body.status, body.text).toBe(422);
    expect(body.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'service_id'] })]);
  });

  it('answers JSON nested past 64 levels with 422 in the kernel shape', async () => {
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    for (const depth of [65, 5000]) {
      const res = await t.request('POST', '/api/v1/auth/login', {
        rawBody: `{"email": "a@b.co", "password": ${deep(depth)}}`,
      });
      expect(res.status, res.text.slice(0, 200)).toBe(422);
      expect(res.body.detail).toEqual([expect.objectContaining({ type: 'json_invalid', loc: ['body'] })]);
      expect(res.headers.get('x-error-code')).toBe('validation_failed');
    }
    const objects = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    for (const depth of [100, 5000]) {
      const res = await t.request('POST', '/api/v1/auth/login', { rawBody: objects(depth) });
      expect(res.status, res.text.slice(0, 200)).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ type: 'json_invalid', loc: ['body'] });
    }
    // Brackets inside strings are text, not nesting.
    const inString = await t.request('POST', '/api/v1/auth/login', {
      body: { email: '['.repeat(500), password: '{'.repeat(500) },
    });
    expect(inString.status).toBe(422);
    expect(inString.body.detail[0].type).not.toBe('json_invalid');
    // 64 levels is still JSON the schema judges.
    const ok = await t.request('POST', '/api/v1/auth/login', {
      rawBody: `{"email": "a@b.co", "password": ${deep(63)}}`,
    });
    expect(ok.status).toBe(422);
    expect(ok.body.detail[0]).toMatchObject({ loc: ['body', 'password'] });
  });

  it('keeps 413 for a body over the limit, however deep', async () => {
    const small = await startTestApp({ env: { API_BODY_LIMIT_BYTES: '4096' } });
    try {
      const res = await small.request('POST', '/api/v1/auth/login', {
        rawBody: '['.repeat(5000) + ']'.repeat(5000),
      });
      expect(res.status).toBe(413);
    } finally {
      await small.close();
    }
  });

  it('answers a body that is not JSON with 415 and nothing of the body', async () => {
    const secret = 'reset-token-8f3a91c2';
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded']) {
      const res = await t.request('POST', '/api/v1/auth/login', {
        headers: { 'content-type': type },
        rawBody: `{"email": "a@b.co", "password": "${secret}", "token": "${secret}"}`,
      });
      expect(res.status, `${type}: ${res.text}`).toBe(415);
      expect(res.body).toEqual({ detail: 'Unsupported media type' });
      expect(res.text).not.toContain(secret);
    }
  });

  it('cuts a 422 input at 256 characters and never carries a redacted value', async () => {
    const long = 'x'.repeat(2 * 1024 * 1024);
    const res = await t.request('POST', '/api/v1/auth/register', { body: { email: long, password: 5 } });
    expect(res.status).toBe(422);
    expect(res.text.length).toBeLessThan(4096);
    const email = res.body.detail.find((d: { loc: string[] }) => d.loc[1] === 'email');
    expect(email.input).toBe(`${'x'.repeat(256)}…`);
    // An object input (the whole body, for a missing field) is cut too, secrets masked first.
    const missing = await t.request('POST', '/api/v1/auth/reset-password', {
      body: { password: 'a long secret one', note: long },
    });
    expect(missing.status).toBe(422);
    expect(missing.text).not.toContain('a long secret one');
    expect(missing.text.length).toBeLessThan(4096);
    // A module's own 422 is bounded too, its message included (a zone file line quoted back).
    const zone = await t.request('POST', '/api/v1/dns/zones', { token, body: { domain: 'cut.example' } });
    expect(zone.status, zone.text).toBe(201);
    const imported = await t.request('POST', `/api/v1/dns/zones/${zone.body.id}/import`, {
      token,
      body: { zone_file: `www 300 IN ${'X'.repeat(300_000)} 1` },
    });
    expect(imported.status).toBe(422);
    expect(imported.text.length).toBeLessThan(4096);
    // Malformed JSON: the parser's message names the problem, not the text around it.
    const malformed = await t.request('POST', '/api/v1/auth/login', {
      rawBody: 'password=a-long-secret-one&token=a-long-secret-one',
    });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0]).toMatchObject({ type: 'json_invalid' });
    expect(malformed.text).not.toContain('a-long-secret-one');
    // A JSON body that is text or a list has no field names: none of it comes back.
    for (const body of ['password=hunter2', ['hunter2']]) {
      const res = await t.request('POST', '/api/v1/auth/login', { body });
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ type: 'model_type', loc: ['body'], input: '<redacted>' });
    }
    const bare = await t.request('POST', '/api/v1/auth/login', { rawBody: 'hunter2' });
    expect(bare.status).toBe(422);
    expect(bare.text).not.toContain('hunter2');
    expect(bare.text).not.toContain('hunter');
  });
});

describe('HTTP kernel: every 500', () => {
  it('is logged with its request id and answered in the kernel shape, even when rendering fails', async () => {
    const lines: string[] = [];
    const app = createHttpServer({
      logger: createLogger('info', { write: (line) => lines.push(line) }),
      bodyLimitBytes: 4096,
      trustProxy: false,
    });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    app.get('/bug', async () => {
      throw new TypeError('a bug');
    });
    // An error whose rendering fails (a cyclic input cannot be walked): the handler's own failure.
    app.get('/bad-error', async () => {
      throw invalidField(['body', 'x'], 'bad', cyclic);
    });
    try {
      for (const url of ['/bug', '/bad-error']) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode, res.body).toBe(500);
        expect(res.json()).toEqual({ detail: 'Internal Server Error' });
        const id = res.headers['x-request-id'];
        expect(id).toMatch(/^[0-9a-f-]{36}$/);
        const logged = lines.map((l) => JSON.parse(l) as { reqId?: string; level: number });
        expect(logged.some((l) => l.reqId === id && l.level === 50)).toBe(true);
      }
    } finally {
      await app.close();
    }
  });
});
