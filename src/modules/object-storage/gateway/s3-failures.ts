/**
 * How our own S3 calls fail: an S3 error answer carries its code (`NoSuchBucket`, `BucketNotEmpty`),
 * which a caller may expect and handle; anything else — the network, a 5xx, an answer we did not
 * expect — is the gateway being unavailable (503), never a 500.
 */
import { AppError } from '../../../kernel/errors/app-error.ts';
import type { Logger } from '../../../kernel/log/logger.ts';
import { gatewayUnavailable } from '../object-storage-errors.ts';

/** The S3 error code of a failed SDK call (`NoSuchBucket`), or undefined for a failure without one. */
export function s3Code(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const err = e as { name?: unknown; Code?: unknown; $metadata?: { httpStatusCode?: number } };
  const status = err.$metadata?.httpStatusCode;
  if (status === undefined || status >= 500) return undefined;
  if (typeof err.Code === 'string') return err.Code;
  return typeof err.name === 'string' ? err.name : undefined;
}

/** Runs a gateway call; a failure that is not already an AppError answers 503 (and is logged). */
export async function viaGateway<T>(log: Logger, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof AppError) throw e;
    log.warn({ err: e, code: s3Code(e) }, `object storage gateway: ${what} failed`);
    throw gatewayUnavailable();
  }
}
