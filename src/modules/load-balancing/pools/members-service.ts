import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { MEMBER_LIMIT, memberLimitReached, memberNotFound, poolNotFound } from '../load-balancing-errors.ts';
import type { Clock } from '../../../kernel/clock.ts';
import type { EventBus } from '../../../kernel/events/domain-events.ts';
import { memberHealthChanged } from '../load-balancing-events.ts';
import { invalidFields } from '../../../kernel/errors/app-error.ts';
import type { PoolsRepository } from './pools-repository.ts';
import { inZone } from '../shared/zone-work.ts';
import type { ZoneAccess } from '../../dns/index.ts';
import { patchMember, prepareMember, type MemberBody, type MemberPatch } from './member-input.ts';
import { memberView, type MemberView } from './member-view.ts';
import type { MembersRepository } from './members-repository.ts';

/** Members (origins) of a pool; every change is a zone change so the data plane reloads the zone. */
export class MembersService {
  constructor(
    private readonly members: MembersRepository,
    private readonly pools: PoolsRepository,
    private readonly zones: ZoneAccess,
    private readonly allowPrivateTargets: boolean,
    private readonly events: EventBus,
    private readonly clock: Clock,
  ) {}

  /**
   * A create or an address/mode change sets the stored health itself (healthy for mode none,
   * else unknown); DNS nodes keep health apart from the zone snapshot, so they hear it here.
   */
  private async announceHealth(zoneId: number, view: MemberView): Promise<MemberView> {
    const event = memberHealthChanged.parse({ memberId: view.id, zoneId, status: view.health_status });
    if (event === null) return view;
    await this.events.publish(memberHealthChanged, event).catch(() => undefined);
    return view;
  }

  async create(owner: OwnerScope, zoneId: number, poolId: number, body: MemberBody): Promise<MemberView> {
    const view = await inZone(this.zones, owner, zoneId, async (trx, zone) => {
      const members = this.members.withTx(trx);
      const pool = await this.pools.withTx(trx).find(zone.id, poolId);
      if (!pool) throw poolNotFound();
      const values = prepareMember(body, this.allowPrivateTargets);
      if (Array.isArray(values)) throw invalidFields(values);
      if ((await members.count(pool.id)) >= MEMBER_LIMIT) throw memberLimitReached();
      return { value: memberView(await members.insert(zone.id, pool.id, values)), changed: true };
    });
    return this.announceHealth(zoneId, view);
  }

  async update(
    owner: OwnerScope,
    zoneId: number,
    poolId: number,
    memberId: number,
    patch: MemberPatch,
  ): Promise<MemberView> {
    const view = await inZone(this.zones, owner, zoneId, async (trx, zone) => {
      const members = this.members.withTx(trx);
      const pool = await this.pools.withTx(trx).find(zone.id, poolId);
      if (!pool) throw poolNotFound();
      const member = await members.find(pool.id, memberId);
      if (!member) throw memberNotFound();
      const values = patchMember(member, patch, this.allowPrivateTargets, new Date(this.clock.now()));
      return { value: memberView(await members.update(member.id, values)), changed: true };
    });
    return this.announceHealth(zoneId, view);
  }

  async delete(owner: OwnerScope, zoneId: number, poolId: number, memberId: number): Promise<void> {
    await inZone(this.zones, owner, zoneId, async (trx, zone) => {
      const members = this.members.withTx(trx);
      const pool = await this.pools.withTx(trx).find(zone.id, poolId);
      if (!pool) throw poolNotFound();
      const member = await members.find(pool.id, memberId);
      if (!member) throw memberNotFound();
      await members.delete(member.id);
      return { value: undefined, changed: true };
    });
  }
}
