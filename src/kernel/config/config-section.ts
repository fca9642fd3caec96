import type { EnvReader } from './env-reader.ts';

/**
 * A module's own settings: read from the environment by `read`, validated and frozen by the
 * kernel with every other section at start (loadConfig), so a bad value anywhere stops the process
 * before anything serves. A module reads its section with `config.section(itsSection)`.
 */
export interface ConfigSection<T> {
  readonly name: string;
  read(env: EnvReader): T;
}

export function defineConfigSection<T>(name: string, read: (env: EnvReader) => T): ConfigSection<T> {
  return { name, read };
}
