import { Type } from 'typebox';
import { describes } from '../../../kernel/http/view-schemas.ts';
import type { ImportResult } from './zone-import-service.ts';

/** An RFC 1035 master file, imported all or nothing; `replace` makes the zone's records the file's. */
export const ImportBody = Type.Object(
  { zone_file: Type.String(), mode: Type.Optional(Type.Enum(['merge', 'replace'], { default: 'merge' })) },
  { additionalProperties: false },
);

export const ImportResponse = describes<ImportResult>()(
  Type.Object({
    imported: Type.Integer(),
    /** Lines not imported and why: the platform's apex SOA and NS, records the zone already has. */
    skipped: Type.Array(Type.Object({ line: Type.Integer(), reason: Type.String() })),
    /** `replace` only: how many records were added, removed, and kept as they were. */
    added: Type.Optional(Type.Integer()),
    removed: Type.Optional(Type.Integer()),
    unchanged: Type.Optional(Type.Integer()),
  }),
);

/** The export answers the zone file itself, as text/plain (sent as is, never serialized). */
export const ExportResponse = {
  description: 'The zone as an RFC 1035 master file',
  content: { 'text/plain': { schema: Type.String() } },
};
