import { MEMBER_HEALTH_CHANNEL, parseMemberHealthEvent } from '../../../health/member-health-channel.ts';
import type { Bus } from '../../../kernel/bus/bus.ts';
import { forbidden, invalidFields, notFound } from '../../../kernel/errors/app-error.ts';
import type { PoolsRepository } from '../pools/pools-repository.ts';
import type { ZoneChanges } from '../zones/zone-change.ts';
import { patchMember, prepareMember, type MemberBody, type MemberPatch } from './member-input.ts';
import { memberView, type MemberView } from './member-view.ts';
import type { MembersRepository } from './members-repository.ts';

export const MEMBER_NOT_FOUND = 'LB member not found';
export const MEMBER_LIMIT = 20;
export const MEMBER_LIMIT_REACHED = `LB member limit reached (${MEMBER_LIMIT})`;
export const POOL_NOT_FOUND = 'Origin pool not found';

/** Members (origins) of a pool; every change is a zone change so the data plane reloads the zone. */
export class MembersService {
  constructor(
    private readonly members: MembersRepository,
    private readonly pools: PoolsRepository,
    private readonly changes: ZoneChanges,
    private readonly allowPrivateTargets: boolean,
    private readonly bus: Bus,
  ) {}

  /**
   * A create or an address/mode change sets the stored health itself (healthy for mode none,
   * else unknown); DNS nodes keep health apart from the zone snapshot, so they hear it here.
   */
  private async announceHealth(zoneId: number, view: MemberView): Promise<MemberView> {
    const event = parseMemberHealthEvent({ memberId: view.id, zoneId, status: view.health_status });
    if (event === null) return view;
    await this.bus.publish(MEMBER_HEALTH_CHANNEL, event).catch(() => undefined);
    return view;
  }

  async create(userId: number, zoneId: number, poolId: number, body: MemberBody): Promise<MemberView> {
    const view = await this.changes.apply(userId, zoneId, async (trx, zone) => {
      const pool = await this.pools.find(zone.id, poolId, trx);
      if (!pool) throw notFound(POOL_NOT_FOUND);
      const values = prepareMember(body, this.allowPrivateTargets);
      if (Array.isArray(values)) throw invalidFields(values);
      if ((await this.members.count(trx, pool.id)) >= MEMBER_LIMIT) throw forbidden(MEMBER_LIMIT_REACHED);
      return { value: memberView(await this.members.insert(trx, zone.id, pool.id, values)), changed: true };
    });
    return this.announceHealth(zoneId, view);
  }

  async update(
    userId: number,
    zoneId: number,
    poolId: number,
    memberId: number,
    patch: MemberPatch,
  ): Promise<MemberView> {
    const view = await this.changes.apply(userId, zoneId, async (trx, zone) => {
      const pool = await this.pools.find(zone.id, poolId, trx);
      if (!pool) throw notFound(POOL_NOT_FOUND);
      const member = await this.members.find(trx, pool.id, memberId);
      if (!member) throw notFound(MEMBER_NOT_FOUND);
      const values = patchMember(member, patch, this.allowPrivateTargets);
      return { value: memberView(await this.members.update(trx, member.id, values)), changed: true };
    });
    return this.announceHealth(zoneId, view);
  }

  async delete(userId: number, zoneId: number, poolId: number, memberId: number): Promise<void> {
    await this.changes.apply(userId, zoneId, async (trx, zone) => {
      const pool = await this.pools.find(zone.id, poolId, trx);
      if (!pool) throw notFound(POOL_NOT_FOUND);
      const member = await this.members.find(trx, pool.id, memberId);
      if (!member) throw notFound(MEMBER_NOT_FOUND);
      await this.members.delete(trx, member.id);
      return { value: undefined, changed: true };
    });
  }
}
