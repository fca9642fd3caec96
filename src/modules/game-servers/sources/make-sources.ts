import type { Clock } from '../../../kernel/clock.ts';
import type { GameServerSources } from '../game-servers-interfaces.ts';
import type { CoreConfig } from '../../../kernel/config/config.ts';
import { CachedVersionSource } from './cached-source.ts';
import { CurseForgeSource } from './curseforge-source.ts';
import { ModrinthSource } from './modrinth-source.ts';
import { PaperBuilds } from './paper-builds.ts';
import type { GameServerSourcesSettings } from './sources-config.ts';
import { GuardedSourceHttp, type SourceHttp } from './source-http.ts';

/** The sources as configured, all through one guarded HTTP client. */
export function makeGameServerSources(
  settings: GameServerSourcesSettings,
  http: SourceHttp,
  clock: Clock,
): Required<GameServerSources> {
  const ttlMs = settings.cacheSeconds * 1000;
  const modrinth = new ModrinthSource(http, {
    apiUrl: settings.modrinthApiUrl,
    userAgent: settings.userAgent,
  });
  const curseforge = new CurseForgeSource(http, {
    apiUrl: settings.curseforgeApiUrl,
    apiKey: settings.curseforgeApiKey,
    userAgent: settings.userAgent,
  });
  return {
    modrinth: new CachedVersionSource(modrinth, clock, ttlMs),
    curseforge: new CachedVersionSource(curseforge, clock, ttlMs),
    paper: new PaperBuilds(http, { apiUrl: settings.paperApiUrl, userAgent: settings.paperUserAgent }),
  };
}

/**
 * The sources' HTTP client under the platform's outbound settings: private and loopback addresses
 * and plain http only where OUTBOUND_ALLOW_PRIVATE_TARGETS and OUTBOUND_ALLOW_HTTP say (tests).
 * Its owner closes it at shutdown.
 */
export function sourceHttpFor(
  config: Pick<CoreConfig, 'outboundAllowPrivateTargets' | 'outboundAllowHttp'>,
): GuardedSourceHttp {
  return new GuardedSourceHttp({
    allowPrivate: config.outboundAllowPrivateTargets,
    allowHttp: config.outboundAllowHttp,
  });
}
