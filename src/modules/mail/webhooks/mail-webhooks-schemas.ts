import { Type } from 'typebox';
import { describes, IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import { RelayParams } from '../relays/relays-schemas.ts';
import type { MailWebhookView } from './mail-webhook-view.ts';

export const MailWebhookParams = Type.Object({
  ...RelayParams.properties,
  webhook_id: Type.Integer({ minimum: 1 }),
});

export const CreateMailWebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 8, maxLength: 1024 }),
    events: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 50 })),
  },
  { additionalProperties: false },
);

export const MailWebhookResponse = describes<MailWebhookView>()(
  Type.Object({
    id: Type.Integer(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    enabled: Type.Boolean(),
    failure_count: Type.Integer(),
    last_status: Nullable(Type.Integer()),
    last_delivered_at: Nullable(IsoTime),
    last_error: Nullable(
      Type.String({
        description:
          'Why the latest failed attempt failed (`HTTP 500`, `timeout: …`, `forbidden_address: …`)',
      }),
    ),
    last_error_at: Nullable(IsoTime),
    created_at: IsoTime,
  }),
);

/** The answer to a creation: the signing secret, this once. */
export const NewMailWebhookResponse = describes<MailWebhookView & { secret: string }>()(
  Type.Object({ ...MailWebhookResponse.properties, secret: Type.String() }),
);
