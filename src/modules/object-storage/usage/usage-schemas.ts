import { Type } from 'typebox';
import { describes, IsoTime } from '../../../kernel/http/view-schemas.ts';
import type { UsageView } from './usage-view.ts';

export const UsageParams = Type.Object({ service_id: Type.Integer({ minimum: 1 }) });

export const UsageQuery = Type.Object({
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Default: 24 hours before `to`' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Default: now' })),
});

export const UsageResponse = describes<UsageView>()(
  Type.Object({
    service_id: Type.Integer(),
    from: IsoTime,
    to: IsoTime,
    points: Type.Array(
      Type.Object({
        at: IsoTime,
        bytes: Type.Integer(),
        objects: Type.Integer(),
        bytes_in: Type.Integer(),
        bytes_out: Type.Integer(),
        requests: Type.Integer(),
      }),
    ),
  }),
);
