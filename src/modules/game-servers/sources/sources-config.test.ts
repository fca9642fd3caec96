import { describe, expect, it } from 'vitest';
import { EnvReader } from '../../../kernel/config/env-reader.ts';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { makeGameServerSources, sourceHttpFor } from './make-sources.ts';
import { SourceUnavailable } from './version-source.ts';
import { DEFAULT_SOURCES_USER_AGENT, gameServerSourcesConfig } from './sources-config.ts';

describe('the game server sources’ settings', () => {
  it('defaults to the public APIs, a 10-minute cache, CurseForge off without a key, https only', async () => {
    const env = new EnvReader({});
    const settings = gameServerSourcesConfig.read(env);
    expect(env.problems).toEqual([]);
    expect(settings).toEqual({
      modrinthApiUrl: 'https://api.modrinth.com',
      curseforgeApiUrl: 'https://api.curseforge.com',
      curseforgeApiKey: null,
      paperApiUrl: 'https://fill.papermc.io',
      userAgent: DEFAULT_SOURCES_USER_AGENT,
      paperUserAgent: DEFAULT_SOURCES_USER_AGENT,
      cacheSeconds: 600,
    });
    const http = sourceHttpFor({ outboundAllowPrivateTargets: false, outboundAllowHttp: false });
    const sources = makeGameServerSources(settings, http, new ManualClock());
    expect([sources.modrinth, sources.curseforge].map((s) => [s.name, s.enabled()])).toEqual([
      ['modrinth', true],
      ['curseforge', false],
    ]);
    const local = makeGameServerSources(
      { ...settings, modrinthApiUrl: 'http://127.0.0.1:9' },
      http,
      new ManualClock(),
    );
    const refused = await local.modrinth
      .versions('P', { loaders: [], gameVersions: [] })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SourceUnavailable);
    expect((refused as Error).message).toBe('Modrinth could not be reached: only https:// URLs are called');
    await http.close();
  });

  it('takes a key, a Paper User-Agent of its own, and names bad values', () => {
    const env = new EnvReader({
      CURSEFORGE_API_KEY: ' key ',
      PAPER_USER_AGENT: 'acme-hosting/2.0 (ops@acme.example)',
      MODRINTH_API_URL: 'not a url',
      GAME_SOURCES_CACHE_S: '-1',
    });
    const settings = gameServerSourcesConfig.read(env);
    expect(settings.curseforgeApiKey).toBe('key');
    expect(settings.paperUserAgent).toBe('acme-hosting/2.0 (ops@acme.example)');
    expect(env.problems).toEqual([
      'MODRINTH_API_URL is not a valid URL',
      'GAME_SOURCES_CACHE_S must be an integer from 0 to 86400, got "-1"',
    ]);
  });
});
