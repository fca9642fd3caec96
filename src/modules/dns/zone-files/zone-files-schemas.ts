import { Type } from 'typebox';
import { describes } from '../../../kernel/http/view-schemas.ts';
import type { ImportResult } from './zone-import-service.ts';

/** An RFC 1035 master file, imported all or nothing. */
export const ImportBody = Type.Object({ zone_file: Type.String() }, { additionalProperties: false });

export const ImportResponse = describes<ImportResult>()(
  Type.Object({
    imported: Type.Integer(),
    /** Lines not imported and why: the platform's apex SOA and NS, records the zone already has. */
    skipped: Type.Array(Type.Object({ line: Type.Integer(), reason: Type.String() })),
  }),
);

/** The export answers the zone file itself, as text/plain (sent as is, never serialized). */
export const ExportResponse = {
  description: 'The zone as an RFC 1035 master file',
  content: { 'text/plain': { schema: Type.String() } },
};
