import { Type } from 'typebox';
import { describes, Nullable } from '../../../kernel/http/view-schemas.ts';
import { MAIL_EVENTS } from './mail-event-names.ts';
import type { MailEventView } from './mail-event-view.ts';

export const ListMailEventsQuery = Type.Object({
  page: Type.Integer({ minimum: 1, default: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  queue_id: Type.Optional(Type.String({ maxLength: 32 })),
  event: Type.Optional(Type.Union(MAIL_EVENTS.map((e) => Type.Literal(e)))),
});

export const MailEventResponse = describes<MailEventView>()(
  Type.Object({
    id: Type.Integer(),
    event: Type.String(),
    type: Type.String(),
    queue_id: Nullable(Type.String()),
    message_id: Nullable(Type.String()),
    from: Nullable(Type.String()),
    to: Nullable(Type.String()),
    response: Nullable(Type.String()),
    /** UTC, with no zone suffix. */
    occurred_at: Type.String(),
  }),
);
