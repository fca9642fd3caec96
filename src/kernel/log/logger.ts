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

export function createLogger(level: LogLevel): Logger {
  return pino({ level, redact: { paths: REDACT, censor: '[redacted]' } });
}
