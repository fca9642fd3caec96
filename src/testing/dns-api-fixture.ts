import { expect } from 'vitest';
import type { TestApp } from './test-app.ts';

export const ZONES = '/api/v1/dns/zones';

/** Creates a zone through the API and answers it; fails the test when the API refuses. */
export async function createZone(
  t: TestApp,
  token: string,
  domain: string,
): Promise<{ id: number; serial: number }> {
  const res = await t.request('POST', ZONES, { token, body: { domain } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
