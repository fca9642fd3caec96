import { pino, type Logger } from 'pino';
import type { LogLevel } from '../config/config.ts';

export type { Logger };

/** Paths whose values are secrets: never written to a log line. */
const REDACT = [
  'password',
  '*.password',
  'req.headers.authorization',
  'headers.authorization',
  'refresh_token',
  '*.refresh_token',
  'access_token',
  '*.access_token',
  'secret',
  '*.secret',
  'databaseUrl',
  'redisUrl',
  'authSecret',
];

/** The product's logger: JSON lines on stdout, or into `destination` (tests read what was logged). */
export function createLogger(level: LogLevel, destination?: { write(line: string): void }): Logger {
  const options = { level, redact: { paths: REDACT, censor: '[redacted]' } };
  return destination === undefined ? pino(options) : pino(options, destination);
}
