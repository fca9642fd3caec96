/**
 * The updates routes' side of the module: the server and its records found at a source (after a
 * rescan) handed to the update check the application wires (`CheckUpdates`); unknown files are
 * never checked. Without a check wired the routes answer 503.
 */
import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { updatesUnavailable } from '../game-servers-errors.ts';
import type {
  CheckUpdates,
  GameServerSources,
  UpdatesAnswer,
  UpdateCheckOptions,
  UpdateCheckRecord,
} from '../game-servers-interfaces.ts';
import type { ServerAccess } from '../servers/server-access.ts';
import type { SoftwareRepository } from './software-repository.ts';
import type { SoftwareScan } from './software-scan.ts';

export class SoftwareUpdateCheck {
  constructor(
    private readonly access: ServerAccess,
    private readonly software: SoftwareRepository,
    private readonly scan: SoftwareScan,
    private readonly sources: () => GameServerSources,
    private readonly check: () => CheckUpdates | null,
  ) {}

  async updates(
    scope: OwnerScope,
    uuid: string,
    options: Omit<UpdateCheckOptions, 'sources'>,
  ): Promise<UpdatesAnswer> {
    const { server } = await this.access.require(scope, uuid, 'software.read');
    const check = this.check();
    if (check === null) throw updatesUnavailable();
    await this.scan.rescan(server, this.sources());
    const records: UpdateCheckRecord[] = [];
    for (const r of await this.software.records(uuid))
      if (r.source_name !== 'unknown' && r.project_id !== null && r.current_version !== null)
        records.push({
          record_uuid: r.record_uuid,
          display_name: r.display_name,
          kind: r.kind,
          source_name: r.source_name,
          project_id: r.project_id,
          install_path: r.install_path,
          current_version: r.current_version,
          current_version_name: r.current_version_name,
        });
    return check(
      {
        uuid: server.uuid,
        specialization_slug: server.specialization_slug,
        version_id: server.version_id,
        game_version: server.game_version,
        loader: server.loader,
      },
      records,
      { sources: this.sources(), ...options },
    );
  }
}
