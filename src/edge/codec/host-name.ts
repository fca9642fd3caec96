/**
 * The name a player's client sends in the handshake, made into the name routes are kept under:
 * - cut at the first NUL: Forge appends `\0FML\0`, `\0FML2\0`, `\0FML3\0` or `\0FORGE` (its
 *   marker, which the upstream still needs: only routing uses the cleaned name);
 * - cut at `///`: the TCPShield form `host///ip:port///timestamp` carries the player's address;
 * - one trailing dot dropped (a fully qualified name typed with its root), lower-cased.
 */
export function routingHost(sent: string): string {
  let host = sent;
  const nul = host.indexOf('\0');
  if (nul !== -1) host = host.slice(0, nul);
  const shield = host.indexOf('///');
  if (shield !== -1) host = host.slice(0, shield);
  if (host.endsWith('.')) host = host.slice(0, -1);
  return host.toLowerCase();
}
