import { readFileSync } from 'node:fs';
import { sql, type Kysely } from 'kysely';
import type { TestApp } from './test-app.ts';

/** The catalogue's game server plans (catalog/products.json): the free trial and a paid one. */
export const GAME_TRIAL = { product_id: 42, pricing_id: 26 } as const;
export const GAME_PAID = { product_id: 30, pricing_id: 23 } as const;

interface CatalogProduct {
  id: number;
  name: string;
  module_name: string;
  pricing: { id: number; billing_cycle: string; price: string; currency: string }[];
}

/**
 * Writes an active game server service of a catalogue plan straight into the product's database,
 * held by `userId` (and `orgId`), as an order would leave it once provisioned, without the server
 * the game servers module makes for an order (orderGameServer below orders one over the API).
 */
export async function insertGameServer(
  t: TestApp,
  holder: { readonly userId: number; readonly orgId: number | null },
  plan: { readonly product_id: number; readonly pricing_id: number } = GAME_TRIAL,
): Promise<number> {
  const file = JSON.parse(readFileSync(new URL('../../catalog/products.json', import.meta.url), 'utf8')) as {
    products: CatalogProduct[];
  };
  const product = file.products.find((p) => p.id === plan.product_id);
  const pricing = product?.pricing.find((p) => p.id === plan.pricing_id);
  if (product === undefined || pricing === undefined) throw new Error(`no plan ${JSON.stringify(plan)}`);
  const db = t.node.runtime.database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const now = new Date(t.node.runtime.clock.now());
  const row = await db
    .insertInto('services')
    .values({
      user_id: holder.userId,
      org_id: holder.orgId,
      customer_id: null,
      product_id: product.id,
      product_name: product.name,
      pricing_id: pricing.id,
      module_name: product.module_name,
      resource_type: 'container',
      label: product.name,
      status: 'active',
      status_reason: null,
      location_code: 'FRA',
      config: sql`${JSON.stringify({ specialization: 'minecraft-paper' })}::jsonb`,
      billing_cycle: pricing.billing_cycle,
      price: pricing.price,
      currency: pricing.currency,
      next_due_date: null,
      activated_at: now,
      terminated_at: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Orders the free trial plan with a specialization over the API (in FRA); answers the uuid of the
 * server the order made.
 */
export async function orderGameServer(t: TestApp, token: string, specialization: string): Promise<string> {
  const locations = (await t.request('GET', '/api/v1/locations')).body as { id: number; code: string }[];
  const location_id = locations.find((l) => l.code === 'FRA')!.id;
  const res = await t.request('POST', '/api/v1/services/order', {
    token,
    body: { ...GAME_TRIAL, location_id, config: { specialization } },
  });
  if (res.status !== 201 || res.body.status !== 'active') throw new Error(`order: ${res.status} ${res.text}`);
  const list = await t.request('GET', '/api/v1/client/servers', { token });
  const server = (list.body.items as { uuid: string; service_id: number }[]).find(
    (s) => s.service_id === res.body.id,
  );
  if (server === undefined) throw new Error(`order: no server for service ${res.body.id}`);
  return server.uuid;
}
