import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { MailContext } from '../mail-context.ts';
import type { RelayAccess } from '../relays/relay-access.ts';
import { eventBody } from './mail-event-recorder.ts';
import { MAIL_EVENTS } from './mail-event-names.ts';

const NullableString = Type.Union([Type.String(), Type.Null()]);

/**
 * A relay's delivery events (GET /api/v1/client/smtp-relay/{service_id}/events): the same
 * bodies its webhooks receive, newest first — for a sender without a webhook endpoint, and to
 * look up one message by `queue_id`.
 */
export function registerMailEventRoutes(app: ModuleApp, ctx: MailContext, access: RelayAccess): void {
  app.get(
    '/client/smtp-relay/:service_id/events',
    {
      schema: {
        summary: "A relay's delivery events, newest first (filter by queue_id, event)",
        params: Type.Object({ service_id: Type.Integer({ minimum: 1 }) }),
        querystring: Type.Object({
          page: Type.Integer({ minimum: 1, default: 1 }),
          limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
          queue_id: Type.Optional(Type.String({ maxLength: 32 })),
          event: Type.Optional(Type.Union(MAIL_EVENTS.map((e) => Type.Literal(e)))),
        }),
        response: {
          200: Type.Array(
            Type.Object({
              id: Type.Integer(),
              event: Type.String(),
              type: Type.String(),
              queue_id: NullableString,
              message_id: NullableString,
              from: NullableString,
              to: NullableString,
              response: NullableString,
              occurred_at: Type.String(),
            }),
          ),
          ...errorResponses(401, 404, 422, 429),
        },
      },
    },
    async (request) => {
      const { service_id } = request.params;
      const { page, limit, queue_id, event } = request.query;
      await access.relayFor(await request.owner(), service_id, 'read');
      let q = ctx.db.selectFrom('mail_events').selectAll().where('service_id', '=', service_id);
      if (queue_id !== undefined) q = q.where('queue_id', '=', queue_id.toUpperCase());
      if (event !== undefined) q = q.where('event', '=', event);
      const rows = await q
        .orderBy('id', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute();
      return rows.map(eventBody) as never;
    },
  );
}
