import type { FastifyRequest } from 'fastify';
import type { AuthLayer } from '../../../kernel/auth/auth-layer.ts';
import type { Clock } from '../../../kernel/clock.ts';
import { keyMatches, lookupOf, RELAY_KEY_PREFIX } from '../../keys/index.ts';
import { invalidRelayKey, relayNotActive } from '../mail-errors.ts';
import type { RelayRow } from '../mail-tables.ts';
import type { RelayKeysRepository } from './relay-keys-repository.ts';

/** last_used_at is written at most this often per key (a busy sender does not write per message). */
const TOUCH_EVERY_MS = 60_000;

/**
 * The `relay` requirement (docs/mail.md, "Relay keys"): a relay key in `X-Api-Key`, accepted on the
 * mail send and limits routes only. Anything else there — no key, a bearer token, an organization
 * key, a wrong or deleted relay key — is 401 `Invalid relay key`; a key of a relay that is
 * suspended or ended is 403. The relay is kept for the handler (relayOf).
 */
export class RelayKeyCheck {
  private readonly relays = new WeakMap<FastifyRequest, RelayRow>();

  constructor(
    private readonly keys: RelayKeysRepository,
    private readonly clock: Clock,
  ) {}

  install(auth: AuthLayer): void {
    auth.provide('relay', async (request) => {
      const header = request.headers['x-api-key'];
      const raw = (Array.isArray(header) ? header[0] : header)?.trim() ?? '';
      const lookup = lookupOf(raw, RELAY_KEY_PREFIX);
      const found = lookup === null ? null : await this.keys.byLookup(lookup);
      if (found === null || !keyMatches(raw, found.key.key_hash)) throw invalidRelayKey();
      if (found.relay.status !== 'active') throw relayNotActive();
      const now = this.clock.now();
      const last = found.key.last_used_at === null ? 0 : new Date(found.key.last_used_at).getTime();
      if (now - last >= TOUCH_EVERY_MS)
        void this.keys.touch(Number(found.key.id), new Date(now)).catch(() => {});
      this.relays.set(request, found.relay);
      return {
        realm: 'main',
        credential: 'relay_key',
        keyId: Number(found.key.id),
        userId: Number(found.relay.user_id),
        ...(found.relay.org_id !== null ? { orgId: Number(found.relay.org_id) } : {}),
      };
    });
  }

  /** The relay of the key the request was accepted with. */
  relayOf(request: FastifyRequest): RelayRow {
    const relay = this.relays.get(request);
    if (relay === undefined) throw invalidRelayKey();
    return relay;
  }
}
