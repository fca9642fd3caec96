import { Type } from 'typebox';
import { describes, IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import type { HealthCheckView, HealthHistoryView } from './health-views.ts';

export const HealthCheckResponse = describes<HealthCheckView>()(
  Type.Object({
    member_id: Type.Integer(),
    health_status: Type.String(),
    probe_status: Type.String(),
    pop: Type.String(),
    last_check_at: IsoTime,
    last_error: Nullable(Type.String()),
    latency_ms: Nullable(Type.Number()),
  }),
);

export const HealthHistoryQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
});

export const HealthHistoryResponse = describes<HealthHistoryView>()(
  Type.Object({
    member_id: Type.Integer(),
    probes: Type.Array(
      Type.Object({
        at: IsoTime,
        pop: Type.String(),
        status: Type.Enum(['healthy', 'unhealthy']),
        latency_ms: Nullable(Type.Integer()),
        error: Nullable(Type.String()),
      }),
    ),
    changes: Type.Array(
      Type.Object({ at: IsoTime, from: Type.String(), to: Type.String(), reason: Type.String() }),
    ),
  }),
);
