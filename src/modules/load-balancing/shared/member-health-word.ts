import type { MemberHealth } from '../../../dns/index.ts';

const HEALTH_WORDS: ReadonlySet<string> = new Set(['unknown', 'healthy', 'unhealthy']);

/** A stored `health_status`; anything unexpected in the column reads as `unknown`. */
export const healthWord = (s: string): MemberHealth =>
  HEALTH_WORDS.has(s) ? (s as MemberHealth) : 'unknown';
