/** The sealing context binding a DNSSEC private key to its zone and role (kernel/crypto/sealing.ts). */
export function keyContext(zoneId: number, role: string): string {
  return `dnssec-key:${zoneId}:${role}`;
}
