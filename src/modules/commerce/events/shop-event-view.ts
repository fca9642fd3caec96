import { Type } from 'typebox';
import { describes, type JsonView } from '../../../kernel/http/view-schemas.ts';
import type { CommerceEventRow } from '../commerce-tables.ts';

export type EventView = JsonView<Omit<CommerceEventRow, 'org_id'>>;

export function eventView(r: CommerceEventRow): EventView {
  return { id: Number(r.id), name: r.name, data: r.data, created_at: new Date(r.created_at).toISOString() };
}

export const EventResponse = describes<EventView>()(
  Type.Object({
    id: Type.Integer(),
    name: Type.String({ description: '`commerce.<object>.<verb>`' }),
    data: Type.Record(Type.String(), Type.Unknown()),
    created_at: Type.String(),
  }),
);
