import type { NoticeRecord, NoticeUpdateRecord } from './notices-repository.ts';

export const NOTICE_KINDS = ['info', 'maintenance', 'incident'] as const;
export const NOTICE_AUDIENCES = ['all', 'customers', 'staff'] as const;
export const NOTICE_PLACEMENTS = ['banner', 'dashboard', 'status_page'] as const;
export const NOTICE_STATUSES = ['draft', 'scheduled', 'active', 'resolved'] as const;
/** An update's `state`: the steps of an incident; `resolved` also resolves the notice. */
export const UPDATE_STATES = ['investigating', 'identified', 'monitoring', 'update', 'resolved'] as const;

/** What a notice is when a request leaves a field out. */
export const NOTICE_DEFAULTS = {
  kind: 'info',
  body: '',
  audience: 'all',
  placement: 'banner',
  status: 'draft',
} as const;

/**
 * Whether the public read shows a notice at `now`: `active` ones (held back before `starts_at`
 * when set, gone from `ends_at` when set) and `scheduled` ones inside [starts_at, ends_at). Drafts
 * and resolved notices never show.
 */
export function isLive(n: NoticeRecord, now: number): boolean {
  const started = n.starts_at === null || n.starts_at.getTime() <= now;
  const notEnded = n.ends_at === null || now < n.ends_at.getTime();
  if (n.status === 'active') return started && notEnded;
  if (n.status === 'scheduled') return n.starts_at !== null && started && notEnded;
  return false;
}

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

export function noticeUpdateOut(u: NoticeUpdateRecord) {
  return { id: u.id, body: u.body, state: u.state, created_at: u.created_at.toISOString() };
}

/** A notice as the console reads it, with its updates (oldest first). */
export function noticeOut(n: NoticeRecord, updates: readonly NoticeUpdateRecord[]) {
  return {
    id: n.id,
    kind: n.kind,
    title: n.title,
    body: n.body,
    audience: n.audience,
    placement: n.placement,
    status: n.status,
    starts_at: iso(n.starts_at),
    ends_at: iso(n.ends_at),
    resolved_at: iso(n.resolved_at),
    created_by: n.created_by,
    created_at: n.created_at.toISOString(),
    updated_at: n.updated_at.toISOString(),
    updates: updates.filter((u) => u.notice_id === n.id).map(noticeUpdateOut),
  };
}

/** A notice as the public read shows it: no author, no audience. */
export function publicNoticeOut(n: NoticeRecord, updates: readonly NoticeUpdateRecord[]) {
  return {
    id: n.id,
    kind: n.kind,
    title: n.title,
    body: n.body,
    placement: n.placement,
    status: n.status,
    starts_at: iso(n.starts_at),
    ends_at: iso(n.ends_at),
    updated_at: n.updated_at.toISOString(),
    updates: updates.filter((u) => u.notice_id === n.id).map(noticeUpdateOut),
  };
}
