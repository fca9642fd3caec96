import { defineEvent } from '../../kernel/events/domain-events.ts';
import {
  MEMBER_HEALTH_CHANNEL,
  parseMemberHealthEvent,
  type MemberHealthEvent,
} from '../../health/member-health-channel.ts';

/**
 * Events of the load-balancing module. `dns.member-health` (its channel name from when load
 * balancing was part of the DNS module) follows every change of a member's health status: DNS
 * nodes update their health view in place, without reloading the zone.
 */
export const memberHealthChanged = defineEvent<MemberHealthEvent>(
  MEMBER_HEALTH_CHANNEL,
  parseMemberHealthEvent,
);
