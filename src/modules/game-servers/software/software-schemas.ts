import { Type } from 'typebox';
import { describes, IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import type { ServerUpdateEntry } from '../game-servers-interfaces.ts';
import type { JobView, SoftwareRecordView } from './software-view.ts';

const Uuid = Type.String({ format: 'uuid' });
export const RecordParams = Type.Object({ uuid: Uuid, record_uuid: Uuid });
export const JobParams = Type.Object({ uuid: Uuid, job_id: Uuid });

export const SoftwareRecordResponse = describes<SoftwareRecordView>()(
  Type.Object({
    record_uuid: Type.String(),
    display_name: Type.String(),
    kind: Type.Union([Type.Literal('plugin'), Type.Literal('mod'), Type.Literal('datapack')]),
    source_name: Type.Union([Type.Literal('modrinth'), Type.Literal('curseforge'), Type.Literal('unknown')]),
    project_id: Nullable(Type.String()),
    install_path: Type.String(),
    current_version: Nullable(Type.String()),
    current_version_name: Nullable(Type.String()),
    status: Type.Union([Type.Literal('installed'), Type.Literal('pending_restart')]),
    staged_version: Nullable(Type.String()),
    can_roll_back: Type.Boolean(),
  }),
);
export const SoftwareListResponse = Type.Object({ items: Type.Array(SoftwareRecordResponse) });

export const JobResponse = describes<JobView>()(
  Type.Object({
    job_id: Type.String(),
    record_uuid: Type.String(),
    action: Type.Union([Type.Literal('install'), Type.Literal('update'), Type.Literal('rollback')]),
    from_version: Nullable(Type.String()),
    to_version: Nullable(Type.String()),
    status: Type.Union([
      Type.Literal('queued'),
      Type.Literal('running'),
      Type.Literal('completed'),
      Type.Literal('failed'),
    ]),
    error: Nullable(Type.String()),
    created_at: IsoTime,
    finished_at: Nullable(IsoTime),
  }),
);

const Id = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._-]+$' });

export const InstallBody = Type.Object(
  {
    source: Type.Union([Type.Literal('modrinth'), Type.Literal('curseforge')]),
    project_id: Id,
    version_id: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export const UpdateBody = Type.Object({ version_id: Type.Optional(Id) }, { additionalProperties: false });

export const PowerBody = Type.Object(
  { action: Type.Union([Type.Literal('start'), Type.Literal('restart')]) },
  { additionalProperties: false },
);
export const PowerResponse = Type.Object({
  action: Type.String(),
  /** Records whose staged build was put in place. */
  applied: Type.Array(
    Type.Object({
      record_uuid: Type.String(),
      install_path: Type.String(),
      version: Nullable(Type.String()),
    }),
  ),
  /** No game process runs here: the start applies staged files only. */
  process: Type.Literal('not_managed'),
});

export const UpdateEntryResponse = describes<ServerUpdateEntry>()(
  Type.Object({
    record_uuid: Type.String(),
    display_name: Type.String(),
    kind: Type.String(),
    source_name: Type.String(),
    install_path: Type.String(),
    current_version: Type.String(),
    current_version_name: Nullable(Type.String()),
    latest_version: Nullable(Type.String()),
    latest: Nullable(
      Type.Object({
        version_id: Type.String(),
        name: Type.String(),
        release_date: Type.String(),
        version_type: Type.String(),
      }),
    ),
    update_available: Type.Boolean(),
    checked_at: IsoTime,
    error: Type.Optional(
      Type.String({ description: 'Why the entry could not be checked (its source is off or failed)' }),
    ),
  }),
);
export const UpdatesResponse = Type.Object({
  updates: Type.Array(UpdateEntryResponse),
  /** Sources switched off here (CurseForge without an API key). */
  sources_off: Type.Array(Type.String()),
});
export const SoftwareUpdatesQuery = Type.Object(
  {
    /** Beta and alpha builds count as updates too. */
    include_prerelease: Type.Optional(Type.Boolean({ default: false })),
    /** Only these sources, comma-separated (`modrinth,curseforge`); default every source. */
    sources: Type.Optional(Type.String({ pattern: '^(modrinth|curseforge)(,(modrinth|curseforge))*$' })),
    /** Check against a game version the server is about to move to (`1.21.4`). */
    game_version: Type.Optional(Type.String({ pattern: '^[0-9A-Za-z.+-]{1,32}$' })),
    /** Every checked record, also those without a newer build. */
    all: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);
