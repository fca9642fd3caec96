import { Type } from 'typebox';
import { describes, Nullable } from '../../../kernel/http/view-schemas.ts';
import type { LimitsAnswer, SendAnswer } from './send-service.ts';

export const SendResponse = describes<SendAnswer>()(
  Type.Object({
    id: Nullable(Type.Integer()),
    queue_id: Nullable(Type.String()),
    message_id: Nullable(Type.String()),
    accepted: Type.Array(Type.String()),
    suppressed: Type.Array(Type.String()),
  }),
);

export const LimitsResponse = describes<LimitsAnswer>()(
  Type.Object({
    per_minute: Type.Integer(),
    per_day: Type.Integer(),
    max_recipients: Type.Integer(),
    sent_last_minute: Type.Integer(),
    sent_today: Type.Integer(),
  }),
);
