/**
 * The S3 SDK, loaded on first use: a process that never talks S3 (a DNS node, which shares the
 * product's bundle) does not pay its memory.
 */
import type * as S3Sdk from '@aws-sdk/client-s3';

let loading: Promise<typeof S3Sdk> | undefined;

export function s3Sdk(): Promise<typeof S3Sdk> {
  loading ??= import('@aws-sdk/client-s3');
  return loading;
}
