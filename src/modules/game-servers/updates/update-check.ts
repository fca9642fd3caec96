import type { Clock } from '../../../kernel/clock.ts';
import type { CheckUpdates, ServerUpdateEntry } from '../game-servers-interfaces.ts';
import type { VersionSource } from '../sources/version-source.ts';
import { checkUpdates } from './check-updates.ts';

/**
 * The module's update check over the configured sources: every record checked by checkUpdates,
 * then, for the `/updates` route, only the entries with a newer build — or with an error, so a
 * source that failed shows on its own entries instead of hiding them.
 */
export function updateCheck(clock: Clock): CheckUpdates {
  return async (server, records, options) => {
    const sources = [options.sources.modrinth, options.sources.curseforge].filter(
      (s): s is VersionSource => s !== undefined,
    );
    const answer = await checkUpdates(
      records,
      { loader: server.loader, game_version: server.game_version ?? '' },
      {
        include_prerelease: options.includePrerelease,
        ...(options.only === undefined ? {} : { sources: options.only }),
        ...(options.gameVersion === undefined ? {} : { game_version: options.gameVersion }),
      },
      sources,
      clock,
    );
    const updates: ServerUpdateEntry[] = answer.updates
      .filter((e) => !options.onlyAvailable || e.update_available || e.error !== undefined)
      .map((e) => ({
        ...e,
        current_version: e.current_version ?? '',
        latest_version: e.latest?.version_id ?? null,
      }));
    return { updates, sources_off: answer.sources_off };
  };
}
