/**
 * S3's bucket naming rules (the ones every region of AWS applies, and Ceph with
 * `rgw_relaxed_s3_bucket_names` off): 3–63 characters of a-z, 0-9, '.' and '-', starting and ending
 * with a letter or digit, no '..', and not shaped like an IPv4 address.
 */

const ALLOWED = /^[a-z0-9][a-z0-9.-]*[a-z0-9]$/;
const IPV4_SHAPE = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** Why `name` is not a valid bucket name, or null when it is. */
export function bucketNameProblem(name: string): string | null {
  if (name.length < 3 || name.length > 63) return 'A bucket name has 3 to 63 characters';
  if (!ALLOWED.test(name))
    return 'A bucket name has lowercase letters, digits, dots and hyphens, and starts and ends with a letter or digit';
  if (name.includes('..')) return 'A bucket name has no two dots in a row';
  if (IPV4_SHAPE.test(name)) return 'A bucket name is not an IP address';
  return null;
}
