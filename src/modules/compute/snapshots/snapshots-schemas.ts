import { Type } from 'typebox';
import { IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import { InstanceUuid, OrgSlug } from '../instances/instances-schemas.ts';

/** PVE's rule for a snapshot name: a letter, then letters, digits, `_` or `-` (2 to 40 in all). */
export const SNAPSHOT_NAME = '^[A-Za-z][A-Za-z0-9_-]{1,39}$';

export const SnapshotParams = Type.Object({
  org_slug: OrgSlug,
  uuid: InstanceUuid,
  snapshot_id: Type.String({ pattern: SNAPSHOT_NAME }),
});

export const CreateSnapshotBody = Type.Object(
  {
    name: Type.String({
      pattern: SNAPSHOT_NAME,
      description: 'A letter, then letters, digits, _ or - (2–40)',
    }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    vmstate: Type.Optional(
      Type.Boolean({ description: 'Save the RAM too (the VM resumes running on rollback)' }),
    ),
  },
  { additionalProperties: false },
);

export const SnapshotResponse = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  vmstate: Type.Boolean(),
  parent: Nullable(Type.String()),
  created_at: Nullable(IsoTime),
});
export const SnapshotsResponse = Type.Object({ items: Type.Array(SnapshotResponse) });
export const DeletedSnapshotResponse = Type.Object({ id: Type.String(), deleted: Type.Literal(true) });
