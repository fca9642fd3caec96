import { Type } from 'typebox';
import { describes, IsoTime, Nullable } from '../../kernel/http/view-schemas.ts';
import type { LocationView, RegionView } from './locations-tables.ts';

export const LocationsQuery = Type.Object({ active_only: Type.Boolean({ default: true }) });

export const LocationResponse = describes<LocationView>()(
  Type.Object({
    id: Type.Integer(),
    /** The PoP's code (upper case), as steering maps and previews name it. */
    code: Type.String(),
    name: Type.String(),
    country_code: Type.String(),
    timezone: Nullable(Type.String()),
    latitude: Nullable(Type.Number()),
    longitude: Nullable(Type.Number()),
    lb_region_code: Nullable(Type.String()),
    sort_order: Type.Integer(),
    is_active: Type.Boolean(),
    created_at: IsoTime,
    updated_at: IsoTime,
  }),
);

export const RegionResponse = describes<RegionView>()(
  Type.Object({
    code: Type.String(),
    name: Type.String(),
    sort_order: Type.Integer(),
    /** ISO 3166-1 alpha-2 codes; every country is in exactly one region. */
    countries: Type.Array(Type.String()),
  }),
);
