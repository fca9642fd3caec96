import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

describe('HTTP kernel: errors and bad input', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { API_BODY_LIMIT_BYTES: '4096' } });
  });
  afterAll(async () => t?.close());

  it('answers 422 with loc naming the body field', async () => {
    const res = await t.request('POST', '/api/v1/auth/register', {
      body: { email: 5, password: 'long enough' },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContainEqual({
      type: 'string_type',
      loc: ['body', 'email'],
      msg: 'Input should be a valid string',
      input: 5,
      ctx: {},
    });
  });

  it('never echoes a secret field back in a 422', async () => {
    const short = await t.request('POST', '/api/v1/auth/register', {
      body: { email: 'a@b.co', password: 'hunter2' },
    });
    expect(short.status).toBe(422);
    expect(short.body.detail).toEqual([
      expect.objectContaining({ type: 'string_too_short', loc: ['body', 'password'], input: '<redacted>' }),
    ]);
    expect(short.text).not.toContain('hunter2');
    // A problem about the whole body (a missing field) carries the body: its secrets are masked.
    const missing = await t.request('POST', '/api/v1/auth/reset-password', {
      body: { password: 'a long secret one' },
    });
    expect(missing.status).toBe(422);
    expect(missing.text).not.toContain('a long secret one');
    const typed = await t.request('POST', '/api/v1/auth/login', {
      body: { email: 'a@b.co', password: 12345678 },
    });
    expect(typed.status).toBe(422);
    expect(typed.text).not.toContain('12345678');
  });

  it('answers 422 with loc naming the query parameter', async () => {
    const res = await t.request('GET', '/api/v1/locations?active_only=maybe');
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({
      type: 'bool_type',
      loc: ['query', 'active_only'],
      input: 'maybe',
    });
  });

  it('lists every missing field', async () => {
    const res = await t.request('POST', '/api/v1/auth/register', { body: {} });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: { loc: unknown }) => d.loc)).toEqual([
      ['body', 'email'],
      ['body', 'password'],
    ]);
    expect(res.body.detail[0]).toMatchObject({ type: 'missing', msg: 'Field required' });
  });

  it('refuses unknown fields', async () => {
    const res = await t.request('POST', '/api/v1/auth/register', {
      body: { email: 'x@y.co', password: 'long enough', admin: true },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      {
        type: 'extra_forbidden',
        loc: ['body', 'admin'],
        msg: 'Extra inputs are not permitted',
        input: true,
        ctx: {},
      },
    ]);
    // Nothing was written: the email is still free.
    const ok = await t.request('POST', '/api/v1/auth/register', {
      body: { email: 'x@y.co', password: 'long enough' },
    });
    expect(ok.status).toBe(201);
  });

  it('answers malformed JSON with json_invalid', async () => {
    const res = await t.request('POST', '/api/v1/auth/login', { rawBody: '{"email": "a@b.co",' });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ type: 'json_invalid', loc: ['body'] });
  });

  it('answers a missing body as a missing field', async () => {
    const empty = await t.request('POST', '/api/v1/auth/login', {
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0]).toMatchObject({ type: 'missing', loc: ['body'] });
    const none = await t.request('POST', '/api/v1/auth/login');
    expect(none.status).toBe(422);
    expect(none.body.detail[0]).toMatchObject({ type: 'missing', loc: ['body'] });
  });

  it('refuses a body over the limit with 413', async () => {
    const res = await t.request('POST', '/api/v1/auth/login', {
      body: { email: 'a@b.co', password: 'x'.repeat(10_000) },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ detail: 'Request body is too large' });
  });

  it('answers unknown routes with JSON 404 and no stack trace', async () => {
    const res = await t.request('GET', '/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Not Found' });
  });

  it('returns a request id', async () => {
    const res = await t.request('GET', '/api/v1/locations');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
