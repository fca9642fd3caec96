import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Clock } from '../clock.ts';
import { invalidField } from '../errors/app-error.ts';
import { tablesOf, type Runtime } from '../runtime/runtime.ts';
import { idempotencyKeyInProgress, idempotencyKeyReused } from '../errors/kernel-errors.ts';

export interface IdempotencyKeyRow {
  user_id: number;
  route: string;
  key: string;
  request_hash: string;
  response_status: number | null;
  response_body: unknown;
  created_at: Date;
}

export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeyRow;
}

/** A reply as a route sends it: status and JSON body. */
export interface KeptReply {
  readonly status: number;
  readonly body: unknown;
}

/** A reply is kept 24 hours, as Stripe keeps them; after that the key is new again. */
const KEPT_MS = 24 * 3600_000;
/** A claim without a reply after 5 minutes belongs to a request that will not answer. */
const ABANDONED_MS = 5 * 60_000;

/** Keys are opaque to the platform; Stripe allows up to 255 characters. */
const KEY = /^[\x21-\x7e]{1,255}$/;

/** The `Idempotency-Key` header, checked; undefined when absent. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  if (value === undefined) return undefined;
  const key = Array.isArray(value) ? value[0] : value;
  if (key === undefined || !KEY.test(key))
    throw invalidField(
      ['header', 'idempotency-key'],
      'Should be 1 to 255 visible ASCII characters',
      key ?? null,
    );
  return key;
}

/** Key order does not change a request: objects are hashed with sorted keys. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/**
 * Replies kept per (account, route, Idempotency-Key), for requests a client retries (orders,
 * payments): the same key and the same request answer the first reply without running again; the
 * same key with another request is 409; a key whose first request is still running is 409 too.
 * A request that fails (an error reply) releases its key, so a corrected retry runs. Replies are
 * kept 24 hours; a claim left without a reply for 5 minutes (its process stopped) is taken over.
 */
export class IdempotentReplies {
  constructor(
    private readonly db: Kysely<IdempotencyTables>,
    private readonly clock: Clock,
  ) {}

  async run(
    scope: { readonly userId: number; readonly route: string; readonly key: string | undefined },
    request: unknown,
    work: () => Promise<KeptReply>,
  ): Promise<KeptReply> {
    if (scope.key === undefined) return work();
    const key = { user_id: scope.userId, route: scope.route, key: scope.key };
    const hash = createHash('sha256').update(canonical(request)).digest('hex');
    const now = new Date(this.clock.now());
    const claimed = await this.db
      .insertInto('idempotency_keys')
      .values({ ...key, request_hash: hash, created_at: now } as never)
      .onConflict((oc) => oc.doNothing())
      .returning('key')
      .executeTakeFirst();
    if (claimed === undefined) {
      const kept = await this.db
        .selectFrom('idempotency_keys')
        .select([
          'request_hash',
          'response_status',
          'created_at',
          sql<unknown>`response_body`.as('response_body'),
        ])
        .where('user_id', '=', key.user_id)
        .where('route', '=', key.route)
        .where('key', '=', key.key)
        .executeTakeFirstOrThrow();
      const age = now.getTime() - new Date(kept.created_at).getTime();
      const expired = age > KEPT_MS || (kept.response_status === null && age > ABANDONED_MS);
      if (!expired) {
        if (kept.request_hash !== hash) throw idempotencyKeyReused();
        if (kept.response_status === null) throw idempotencyKeyInProgress();
        return { status: kept.response_status, body: kept.response_body };
      }
      // A key past its lifetime, or a claim whose request never answered (a process that stopped):
      // taken over by this request, once (the first to update it wins).
      const taken = await this.db
        .updateTable('idempotency_keys')
        .set({ request_hash: hash, response_status: null, response_body: null, created_at: now } as never)
        .where('user_id', '=', key.user_id)
        .where('route', '=', key.route)
        .where('key', '=', key.key)
        .where('created_at', '=', kept.created_at)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) throw idempotencyKeyInProgress();
    }
    const where = this.db
      .deleteFrom('idempotency_keys')
      .where('user_id', '=', key.user_id)
      .where('route', '=', key.route)
      .where('key', '=', key.key);
    let reply: KeptReply;
    try {
      reply = await work();
    } catch (error) {
      await where.execute();
      throw error;
    }
    await this.db
      .updateTable('idempotency_keys')
      .set({
        response_status: reply.status,
        response_body: sql`${JSON.stringify(reply.body)}::jsonb`,
      } as never)
      .where('user_id', '=', key.user_id)
      .where('route', '=', key.route)
      .where('key', '=', key.key)
      .execute();
    return reply;
  }
}

/** The deployment's kept replies, for a module's idempotent routes. */
export function idempotentReplies(runtime: Runtime): IdempotentReplies {
  return new IdempotentReplies(tablesOf<IdempotencyTables>(runtime), runtime.clock);
}

/** The header as a route schema declares it (`schema.headers`), so the OpenAPI document shows it. */
export const IdempotencyKeyHeader = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7e]+$',
      description:
        'A retry with the same key and request answers the first reply; the same key with another request is 409',
    }),
  ),
});
