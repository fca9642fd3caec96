import type { RelayRow } from '../mail-tables.ts';
import type { MessagesRepository } from './messages-repository.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

function dayStart(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** When a new message may be handed off, and which limit held it (null: none). */
export interface SendSlot {
  readonly at: Date;
  readonly heldBy: 'queue.rate-limit-exceeded' | 'queue.quota-exceeded' | null;
}

/**
 * The slot of the next message of a relay: at most `per_minute` messages within any
 * 60 seconds and `per_day` per UTC day. Slots are handed out in order under the relay's row lock,
 * so the latest `per_minute` slots decide the minute: a message fits once the `per_minute`-th
 * latest is a minute old. A full day moves the message to the next day's start.
 */
export async function nextSlot(
  messages: MessagesRepository,
  relay: RelayRow,
  nowMs: number,
): Promise<SendSlot> {
  const serviceId = Number(relay.service_id);
  let at = nowMs;
  let heldBy: SendSlot['heldBy'] = null;
  for (let round = 0; round < 4; round++) {
    const nth = await messages.nthLatestSince(serviceId, new Date(at - MINUTE_MS), relay.per_minute - 1);
    if (nth !== null && nth.getTime() + MINUTE_MS > at) {
      at = nth.getTime() + MINUTE_MS;
      heldBy ??= 'queue.rate-limit-exceeded';
    }
    const day = dayStart(at);
    if ((await messages.countBetween(serviceId, new Date(day), new Date(day + DAY_MS))) < relay.per_day)
      break;
    at = day + DAY_MS;
    heldBy = 'queue.quota-exceeded';
  }
  return { at: new Date(at), heldBy };
}

/** The limits route's counters: messages sent in the last minute and in the UTC day. */
export async function usage(
  messages: MessagesRepository,
  relay: RelayRow,
  nowMs: number,
): Promise<{ sent_last_minute: number; sent_today: number }> {
  const serviceId = Number(relay.service_id);
  const end = new Date(nowMs + 1);
  return {
    sent_last_minute: await messages.countBetween(serviceId, new Date(nowMs - MINUTE_MS + 1), end),
    sent_today: await messages.countBetween(serviceId, new Date(dayStart(nowMs)), end),
  };
}
