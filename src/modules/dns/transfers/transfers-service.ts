import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
/**
 * Zone transfer settings of a zone. The TSIG secret is write-only: stored sealed
 * (tsig-secret.ts), never returned, never logged. Saving settings keeps the zone's current
 * version for IXFR and tells DNS nodes to reload the zone (its serial does not move: the zone's
 * data did not change).
 */
import { TSIG_HMAC_SHA256 } from '../../../dns/index.ts';
import type { JsonView } from '../../../kernel/http/view-schemas.ts';

import { IP_BYTES, parseCidr, parseIpInto } from '../../../dns/index.ts';
import type { Clock } from '../../../kernel/clock.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { Sealer } from '../../../kernel/crypto/sealing.ts';
import type { EventBus } from '../../../kernel/events/domain-events.ts';
import type { ZoneTransferRow } from '../dns-tables.ts';
import { zoneChanged } from '../dns-events.ts';
import type { ZonesRepository } from '../zones/zones-repository.ts';
import { parseNotifyTarget } from './notify-sender.ts';
import type { TransfersRepository } from './transfers-repository.ts';
import { sealTsigSecret } from './tsig-secret.ts';
import type { ZoneVersions } from './zone-versions.ts';

/** The zone's transfer settings as the API shows them: the TSIG secret never leaves. */
export type TransfersView = JsonView<Pick<ZoneTransferRow, 'zone_id' | 'allow_from' | 'notify'>> & {
  tsig: { name: string; algorithm: string } | null;
};

export interface TransfersBody {
  allow_from: string[];
  tsig: { name: string; algorithm: string; secret?: string } | null;
  notify: string[];
}

const KEY_NAME = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** RFC 8945 §6: keys shorter than the hash output weaken it; 16 octets is the floor we accept. */
const MIN_SECRET_BYTES = 16;
const MAX_SECRET_BYTES = 512;

function checkAllowFrom(list: readonly string[]): string[] {
  return list.map((entry, i) => {
    const text = entry.trim();
    try {
      parseCidr(text);
    } catch {
      throw invalidField(['body', 'allow_from', i], 'Value is not an IP address or CIDR prefix', entry);
    }
    return text;
  });
}

function checkNotify(list: readonly string[]): string[] {
  const scratch = new Uint8Array(IP_BYTES);
  return list.map((entry, i) => {
    const target = parseNotifyTarget(entry.trim());
    if (target === null || parseIpInto(target.host, scratch) === 0) {
      throw invalidField(
        ['body', 'notify', i],
        'Value must be "<IPv4>:<port>" or "[<IPv6>]:<port>" with a port from 1 to 65535',
        entry,
      );
    }
    return entry.trim();
  });
}

export class TransfersService {
  constructor(
    private readonly repo: TransfersRepository,
    private readonly zones: ZonesRepository,
    private readonly enc: Sealer,
    private readonly events: EventBus,
    private readonly versions: ZoneVersions,
    private readonly clock: Clock,
  ) {}

  async get(owner: OwnerScope, zoneId: number): Promise<TransfersView> {
    const zone = await this.zones.findAccessible(owner, zoneId);
    const row = await this.repo.find(zone.id);
    return {
      zone_id: Number(zone.id),
      allow_from: row?.allow_from ?? [],
      tsig:
        row?.tsig_name != null && row.tsig_algorithm !== null
          ? { name: row.tsig_name, algorithm: row.tsig_algorithm }
          : null,
      notify: row?.notify ?? [],
    };
  }

  async put(owner: OwnerScope, zoneId: number, body: TransfersBody): Promise<TransfersView> {
    const zone = await this.zones.findAccessible(owner, zoneId, true);
    const allowFrom = checkAllowFrom(body.allow_from);
    const notify = checkNotify(body.notify);
    let tsig: { name: string; algorithm: string; secret: Uint8Array } | null = null;
    if (body.tsig !== null) {
      const name = body.tsig.name.trim().toLowerCase().replace(/\.$/, '');
      if (!KEY_NAME.test(name) || name.length > 253) {
        throw invalidField(
          ['body', 'tsig', 'name'],
          'Value is not a valid key name (a domain name)',
          body.tsig.name,
        );
      }
      const algorithm = body.tsig.algorithm.trim().toLowerCase().replace(/\.$/, '');
      if (algorithm !== TSIG_HMAC_SHA256) {
        throw invalidField(
          ['body', 'tsig', 'algorithm'],
          'Only hmac-sha256 is supported',
          body.tsig.algorithm,
        );
      }
      tsig = { name, algorithm, secret: await this.sealedSecret(zone.id, name, body.tsig.secret) };
    }
    await this.repo.upsert(zone.id, { allowFrom, notify, tsig }, new Date(this.clock.now()));
    // The version a secondary starts from, so that its first IXFR can be answered incrementally.
    const current = await this.versions.record(zone.id);
    await this.events
      .publish(zoneChanged, {
        zoneId: zone.id,
        domain: zone.domain,
        serial: current?.serial ?? Number(zone.serial),
        deleted: false,
        publishedAtMs: Date.now(),
      })
      .catch(() => undefined);
    return this.get(owner, zoneId);
  }

  /** A new secret sealed, or the one already set for this key when `secret` is omitted. */
  private async sealedSecret(zoneId: number, name: string, secret: string | undefined): Promise<Uint8Array> {
    if (secret === undefined) {
      const row = await this.repo.find(zoneId);
      if (row?.tsig_secret != null && row.tsig_name === name) return row.tsig_secret;
      throw invalidField(['body', 'tsig', 'secret'], 'A secret is required for a new key', null, 'missing');
    }
    const bytes = BASE64.test(secret) ? Buffer.from(secret, 'base64') : null;
    if (bytes === null || bytes.length < MIN_SECRET_BYTES || bytes.length > MAX_SECRET_BYTES) {
      throw invalidField(
        ['body', 'tsig', 'secret'],
        `Value must be base64 of ${MIN_SECRET_BYTES} to ${MAX_SECRET_BYTES} bytes`,
        '<redacted>',
      );
    }
    return sealTsigSecret(this.enc, zoneId, bytes);
  }
}
