import { Type } from 'typebox';
import { describes } from '../../../kernel/http/view-schemas.ts';
import type { OrgWebhookView } from './org-webhook-view.ts';

export const OrgSlugParams = Type.Object({ org_slug: Type.String({ minLength: 1, maxLength: 64 }) });

export const OrgWebhookParams = Type.Object({
  org_slug: Type.String({ minLength: 1, maxLength: 64 }),
  webhook_id: Type.Integer({ minimum: 1 }),
});

const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'https://, at most 1024 characters' });
const Events = Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { maxItems: 100 });

export const CreateOrgWebhookBody = Type.Object(
  { url: Url, events: Events },
  { additionalProperties: false },
);

export const UpdateOrgWebhookBody = Type.Object(
  { url: Type.Optional(Url), events: Type.Optional(Events), is_active: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

export const OrgWebhookResponse = describes<OrgWebhookView>()(
  Type.Object({
    id: Type.Integer(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    is_active: Type.Boolean(),
    failure_count: Type.Integer(),
    last_triggered_at: Type.Union([Type.String(), Type.Null()]),
    last_error: Type.Union([Type.String(), Type.Null()], {
      description: 'Why the latest failed attempt failed (`HTTP 500`, `timeout: …`, `forbidden_address: …`)',
    }),
    last_error_at: Type.Union([Type.String(), Type.Null()], {
      description: 'When the latest attempt failed',
    }),
    created_at: Type.String(),
  }),
);

export const DeletedOrgWebhookResponse = Type.Object({ id: Type.Integer(), deleted: Type.Boolean() });
