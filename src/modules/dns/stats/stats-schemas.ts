import { Type } from 'typebox';
import { describes, IsoTime } from '../../../kernel/http/view-schemas.ts';
import type { ZoneStats } from './stats-service.ts';

/** Counts keyed by a record type (`A`) or an RCODE (`NOERROR`): only those seen appear. */
const Counts = Type.Record(Type.String(), Type.Integer());

export const ZoneStatsResponse = describes<ZoneStats>()(
  Type.Object({
    zone_id: Type.Integer(),
    period_hours: Type.Integer(),
    total: Type.Integer(),
    by_type: Counts,
    by_rcode: Counts,
    /** One entry per hour, oldest first, the current hour last. */
    hourly: Type.Array(Type.Object({ hour: IsoTime, total: Type.Integer() })),
  }),
);
