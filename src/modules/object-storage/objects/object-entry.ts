/**
 * An entry of a bucket listing as the API shows it: an object (its key, size, last change and
 * ETag without S3's quotes), or a folder — a common prefix of keys under the '/' delimiter, with
 * no size, date nor ETag. Not a row: the gateway holds objects, we keep none.
 */
import type { _Object, CommonPrefix } from '@aws-sdk/client-s3';

export interface ObjectEntry {
  key: string;
  size: number | null;
  last_modified: string | null;
  etag: string | null;
  is_prefix: boolean;
}

export const folderEntry = (p: CommonPrefix): ObjectEntry => ({
  key: p.Prefix ?? '',
  size: null,
  last_modified: null,
  etag: null,
  is_prefix: true,
});

export const objectEntry = (o: _Object): ObjectEntry => ({
  key: o.Key ?? '',
  size: o.Size ?? null,
  last_modified: o.LastModified?.toISOString() ?? null,
  etag: o.ETag === undefined ? null : unquoted(o.ETag),
  is_prefix: false,
});

/** S3 writes an ETag in double quotes (`"9b2c…"`); the API shows what is between them. */
function unquoted(etag: string): string {
  return etag.length >= 2 && etag.startsWith('"') && etag.endsWith('"') ? etag.slice(1, -1) : etag;
}
