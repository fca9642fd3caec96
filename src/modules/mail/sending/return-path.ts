import type { Sealer } from '../../../kernel/crypto/sealing.ts';

const CONTEXT = 'mail-verp';
const TAG_BYTES = 6;

/**
 * The VERP return path of a message: `bounce+<queue id>-<tag>@<bounce domain>`. The
 * queue id finds the message a DSN is about; the tag (keyed, so return paths cannot be made up)
 * keeps strangers from filing events against other people's messages. Lower case throughout:
 * some MTAs fold the case of local parts.
 */
export function returnPath(sealer: Sealer, queueId: string, bounceDomain: string): string {
  const id = queueId.toLowerCase();
  return `bounce+${id}-${sealer.mac(id, CONTEXT, TAG_BYTES)}@${bounceDomain}`;
}

/** The queue id a return-path address names, when its tag is right; else null. */
export function queueIdOf(sealer: Sealer, address: string, bounceDomain: string): string | null {
  const m = /^bounce\+([0-9a-z]+)-([0-9a-f]+)@(.+)$/i.exec(address.trim());
  if (m === null || m[3]!.toLowerCase() !== bounceDomain) return null;
  const id = m[1]!.toLowerCase();
  return sealer.mac(id, CONTEXT, TAG_BYTES) === m[2]!.toLowerCase() ? id.toUpperCase() : null;
}
