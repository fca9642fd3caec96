import { defineConfigSection } from '../../../kernel/config/config-section.ts';

export interface GameServerSourcesSettings {
  readonly modrinthApiUrl: string;
  readonly curseforgeApiUrl: string;
  /** Null: CurseForge is off (its API answers only with a key). */
  readonly curseforgeApiKey: string | null;
  readonly paperApiUrl: string;
  /** Sent to Modrinth and CurseForge: `<product>/<version> (<contact>)`, as Modrinth asks. */
  readonly userAgent: string;
  /** Sent to Paper's Fill API, which refuses requests without a descriptive one. */
  readonly paperUserAgent: string;
  /** How long a project's builds are kept before a source is asked again. */
  readonly cacheSeconds: number;
}

export const DEFAULT_SOURCES_USER_AGENT = 'hosting-platform-game-servers/0.1 (admin@localhost)';

export const gameServerSourcesConfig = defineConfigSection<GameServerSourcesSettings>(
  'game-server-sources',
  (env) => {
    const userAgent = env.str('GAME_SOURCES_USER_AGENT', DEFAULT_SOURCES_USER_AGENT);
    return {
      modrinthApiUrl: env.url('MODRINTH_API_URL', ['https:', 'http:']) ?? 'https://api.modrinth.com',
      curseforgeApiUrl: env.url('CURSEFORGE_API_URL', ['https:', 'http:']) ?? 'https://api.curseforge.com',
      curseforgeApiKey: env.optional('CURSEFORGE_API_KEY'),
      paperApiUrl: env.url('PAPER_API_URL', ['https:', 'http:']) ?? 'https://fill.papermc.io',
      userAgent,
      paperUserAgent: env.str('PAPER_USER_AGENT', userAgent),
      cacheSeconds: env.int('GAME_SOURCES_CACHE_S', 600, 0, 86_400),
    };
  },
);
