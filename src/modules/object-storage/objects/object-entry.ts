/**
 * An entry of a bucket listing as the API shows it: an object (its key, size, last change and
 * ETag without S3's quotes), or a folder — a common prefix of keys under the '/' delimiter, with
 * no size, date nor ETag. Not a row: the gateway holds objects, we keep none.
 */
import type { EntryMaker } from '../gateway/s3-listing.ts';

export interface ObjectEntry {
  key: string;
  size: number | null;
  last_modified: string | null;
  etag: string | null;
  is_prefix: boolean;
}

/** Entries made straight from the gateway's listing. */
export const entryMaker: EntryMaker<ObjectEntry> = {
  folder: (prefix) => ({ key: prefix, size: null, last_modified: null, etag: null, is_prefix: true }),
  object: (key, size, lastModified, etag) => ({
    key,
    size,
    last_modified: isoTime(lastModified),
    etag: unquoted(etag),
    is_prefix: false,
  }),
};

/** The gateway writes ISO 8601 in UTC with milliseconds, as toISOString does: kept as written. */
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function isoTime(text: string): string | null {
  if (ISO_MS.test(text)) return text;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** S3 writes an ETag in double quotes (`"9b2c…"`); the API shows what is between them. */
function unquoted(etag: string): string | null {
  if (etag === '') return null;
  return etag.length >= 2 && etag.startsWith('"') && etag.endsWith('"') ? etag.slice(1, -1) : etag;
}
