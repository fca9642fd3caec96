import { expect } from 'vitest';
import type { MailModule } from '../modules/mail/index.ts';
import { createZone } from './dns-api-fixture.ts';
import type { TestApp } from './test-app.ts';

/** The catalogue's free SMTP relay plan (catalog/products.json). */
export const RELAY_FREE = { product_id: 3, pricing_id: 4 };
export const RELAY = '/api/v1/client/smtp-relay';

export function mailModule(t: TestApp): MailModule {
  return t.node.modules.find((m) => m.name === 'mail') as MailModule;
}

/** Orders the free relay plan; answers the service id. */
export async function orderRelay(t: TestApp, token: string): Promise<number> {
  const res = await t.request('POST', '/api/v1/services/order', { token, body: RELAY_FREE });
  expect(res.status, res.text).toBe(201);
  expect(res.body.status).toBe('active');
  return res.body.id as number;
}

export async function relayKey(t: TestApp, token: string, serviceId: number): Promise<string> {
  const res = await t.request('POST', `${RELAY}/${serviceId}/keys`, { token, body: { label: 'app' } });
  expect(res.status, res.text).toBe(201);
  return res.body.raw_key as string;
}

/**
 * A relay that sends from `domain`, whose zone is hosted here and held by the same user: the
 * DKIM, SPF and return-path records are published at once and the domain is verified.
 */
export async function relayWithDomain(
  t: TestApp,
  token: string,
  domain: string,
): Promise<{ serviceId: number; key: string; zoneId: number; domainView: Record<string, unknown> }> {
  const serviceId = await orderRelay(t, token);
  const zone = await createZone(t, token, domain);
  const added = await t.request('POST', `${RELAY}/${serviceId}/domains`, { token, body: { domain } });
  expect(added.status, added.text).toBe(201);
  expect(added.body.status).toBe('verified');
  return { serviceId, key: await relayKey(t, token, serviceId), zoneId: zone.id, domainView: added.body };
}

/** POST /mail/send with a relay key. */
export function sendMail(t: TestApp, key: string, body: unknown) {
  return t.request('POST', '/api/v1/mail/send', { body, headers: { 'x-api-key': key } });
}

/** The relay's events, oldest first (the route answers newest first). */
export async function relayEvents(
  t: TestApp,
  token: string,
  serviceId: number,
  query = '',
): Promise<Record<string, unknown>[]> {
  const res = await t.request('GET', `${RELAY}/${serviceId}/events?limit=200${query}`, { token });
  expect(res.status, res.text).toBe(200);
  return (res.body as Record<string, unknown>[]).reverse();
}
