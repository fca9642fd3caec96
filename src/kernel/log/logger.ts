import { pino, type Logger } from 'pino';
import type { LogLevel } from '../config/config.ts';
import { SECRET_FIELDS } from './secret-field-names.ts';

export type { Logger };

/**
 * Paths whose values are secrets: never written to a log line. Every secret field (one list with
 * the 422 redaction), at the top of a line or one level down (`body.password`), and the config's
 * secrets. `code` is also an error's code (`err.code`, useful in a log): a TOTP code is masked
 * where a request body puts it.
 */
const REDACT = [
  ...[...SECRET_FIELDS].flatMap((field) =>
    field === 'code' ? ['body.code', '*.body.code'] : [field, `*.${field}`],
  ),
  'req.headers.authorization',
  'headers.authorization',
  'databaseUrl',
  'redisUrl',
  'authSecret',
  'stripeSecretKey',
  'stripeWebhookSecret',
];

/** The product's logger: JSON lines on stdout, or into `destination` (tests read what was logged). */
export function createLogger(level: LogLevel, destination?: { write(line: string): void }): Logger {
  const options = { level, redact: { paths: REDACT, censor: '[redacted]' } };
  return destination === undefined ? pino(options) : pino(options, destination);
}
