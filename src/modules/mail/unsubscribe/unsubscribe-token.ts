import type { Sealer } from '../../../kernel/crypto/sealing.ts';

const CONTEXT = 'mail-unsubscribe';

/**
 * The unsubscribe token (opaque; it names the tenant and the addressee):
 * the relay's service id and the address, sealed (AES-GCM authenticates it, so a forged or
 * altered token does not open), in base64url.
 */
export function unsubscribeToken(sealer: Sealer, serviceId: number, address: string): string {
  return Buffer.from(sealer.sealText(`${serviceId}\n${address.toLowerCase()}`, CONTEXT)).toString(
    'base64url',
  );
}

export function openUnsubscribeToken(
  sealer: Sealer,
  token: string,
): { serviceId: number; address: string } | null {
  if (!/^[A-Za-z0-9_-]{20,1000}$/.test(token)) return null;
  try {
    const [id, address] = sealer.openText(Buffer.from(token, 'base64url'), CONTEXT).split('\n');
    const serviceId = Number(id);
    if (!Number.isSafeInteger(serviceId) || address === undefined || address === '') return null;
    return { serviceId, address };
  } catch {
    return null;
  }
}
