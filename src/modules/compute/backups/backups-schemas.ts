import { Type } from 'typebox';
import { describes, IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import { InstanceUuid, OrgSlug } from '../instances/instances-schemas.ts';
import type { BackupView } from './backup-view.ts';

export const BackupParams = Type.Object({
  org_slug: OrgSlug,
  uuid: InstanceUuid,
  backup_id: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }),
});

const Mode = Type.Union([Type.Literal('snapshot'), Type.Literal('suspend'), Type.Literal('stop')]);
const Compress = Type.Union([
  Type.Literal('zstd'),
  Type.Literal('gzip'),
  Type.Literal('lzo'),
  Type.Literal('none'),
]);

export const CreateBackupBody = Type.Object(
  {
    note: Type.Optional(Type.String({ maxLength: 200 })),
    mode: Type.Optional(Mode),
    compress: Type.Optional(Compress),
  },
  { additionalProperties: false },
);

export const BackupResponse = describes<BackupView>()(
  Type.Object({
    id: Type.Integer(),
    note: Type.String(),
    mode: Mode,
    compress: Compress,
    size_bytes: Nullable(Type.Integer()),
    created_at: IsoTime,
    status: Type.Union([Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')]),
  }),
);
export const BackupsResponse = Type.Object({ items: Type.Array(BackupResponse) });
export const DeletedBackupResponse = Type.Object({ id: Type.Integer(), deleted: Type.Literal(true) });
