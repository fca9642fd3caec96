import { Type } from 'typebox';
import { describes, IsoTime } from '../../../kernel/http/view-schemas.ts';
import { RelayParams } from '../relays/relays-schemas.ts';
import type { SuppressionPage } from './suppressions-service.ts';
import type { SuppressionView } from './suppression-view.ts';

export const SuppressionParams = Type.Object({
  ...RelayParams.properties,
  address: Type.String({ maxLength: 320 }),
});

export const ListSuppressionsQuery = Type.Object({
  page: Type.Integer({ minimum: 1, default: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
});

const SuppressionResponse = describes<SuppressionView>()(
  Type.Object({
    address: Type.String(),
    reason: Type.Union([Type.Literal('bounced'), Type.Literal('complaint'), Type.Literal('unsubscribed')]),
    created_at: IsoTime,
  }),
);

export const SuppressionPageResponse = describes<SuppressionPage>()(
  Type.Object({
    items: Type.Array(SuppressionResponse),
    total: Type.Integer(),
    page: Type.Integer(),
    limit: Type.Integer(),
  }),
);
