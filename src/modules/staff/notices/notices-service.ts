import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { OrgDirectory } from '../../orgs/index.ts';
import type { StaffCaller } from '../access/staff-access.ts';
import { noticeNotFound, staffOrgNotFound } from '../staff-errors.ts';
import type { StaffContext } from '../staff-context.ts';
import { isLive, NOTICE_DEFAULTS, noticeOut, publicNoticeOut } from './notice-rules.ts';
import { NoticesRepository, type NoticeRecord } from './notices-repository.ts';

export interface NoticeCreate {
  readonly title: string;
  readonly kind?: string;
  readonly body?: string;
  readonly audience?: string;
  readonly placement?: string;
  readonly status?: string;
  readonly starts_at?: string | null;
  readonly ends_at?: string | null;
}

export interface NoticePatch extends Partial<NoticeCreate> {
  readonly clear_starts_at?: boolean;
  readonly clear_ends_at?: boolean;
}

const dateOf = (v: string | null | undefined): Date | null | undefined =>
  v === undefined ? undefined : v === null ? null : new Date(v);

/** The window and status a notice ends with must agree (422 naming the field otherwise). */
function checkWindow(status: string, startsAt: Date | null, endsAt: Date | null): void {
  if (startsAt !== null && endsAt !== null && endsAt.getTime() <= startsAt.getTime())
    throw invalidField(['body', 'ends_at'], 'Must be after starts_at', endsAt.toISOString());
  if (status === 'scheduled' && startsAt === null)
    throw invalidField(['body', 'starts_at'], 'A scheduled notice needs starts_at', null);
}

/** The console's notices, and the public read of those live now. */
export class NoticesService {
  private readonly repo: NoticesRepository;

  constructor(
    private readonly ctx: StaffContext,
    private readonly orgs: OrgDirectory,
  ) {
    this.repo = new NoticesRepository(ctx.db);
  }

  private now(): Date {
    return new Date(this.ctx.clock.now());
  }

  async list(caller: StaffCaller, status?: string) {
    const rows = await this.repo.list(caller.orgId, status);
    const updates = await this.repo.updatesOf(rows.map((r) => r.id));
    return rows.map((r) => noticeOut(r, updates));
  }

  async create(caller: StaffCaller, body: NoticeCreate) {
    const at = this.now();
    const status = body.status ?? NOTICE_DEFAULTS.status;
    const startsAt = dateOf(body.starts_at) ?? null;
    const endsAt = dateOf(body.ends_at) ?? null;
    checkWindow(status, startsAt, endsAt);
    const row = await this.repo.insert({
      org_id: caller.orgId,
      kind: body.kind ?? NOTICE_DEFAULTS.kind,
      title: body.title,
      body: body.body ?? NOTICE_DEFAULTS.body,
      audience: body.audience ?? NOTICE_DEFAULTS.audience,
      placement: body.placement ?? NOTICE_DEFAULTS.placement,
      status,
      starts_at: startsAt,
      ends_at: endsAt,
      resolved_at: status === 'resolved' ? at : null,
      created_by: caller.userId,
      created_at: at,
      updated_at: at,
    });
    return noticeOut(row, []);
  }

  async patch(caller: StaffCaller, id: number, body: NoticePatch) {
    const at = this.now();
    const row = await this.ctx.transaction(async (uow) => {
      const repo = this.repo.withTx(uow.trx);
      const found = await repo.find(caller.orgId, id, true);
      if (found === null) throw noticeNotFound();
      if (body.clear_starts_at === true && body.starts_at != null)
        throw invalidField(['body', 'clear_starts_at'], 'Not with starts_at', true);
      if (body.clear_ends_at === true && body.ends_at != null)
        throw invalidField(['body', 'clear_ends_at'], 'Not with ends_at', true);
      const startsAt = body.clear_starts_at === true ? null : (dateOf(body.starts_at) ?? found.starts_at);
      const endsAt = body.clear_ends_at === true ? null : (dateOf(body.ends_at) ?? found.ends_at);
      const status = body.status ?? found.status;
      checkWindow(status, startsAt, endsAt);
      return repo.update(found.id, {
        ...(body.kind !== undefined ? { kind: body.kind } : {}),
        ...(body.title !== undefined ? { title: body.title } : {}),
        ...(body.body !== undefined ? { body: body.body } : {}),
        ...(body.audience !== undefined ? { audience: body.audience } : {}),
        ...(body.placement !== undefined ? { placement: body.placement } : {}),
        status,
        starts_at: startsAt,
        ends_at: endsAt,
        resolved_at: status === 'resolved' ? (found.resolved_at ?? at) : null,
        updated_at: at,
      });
    });
    return noticeOut(row, await this.repo.updatesOf([row.id]));
  }

  async remove(caller: StaffCaller, id: number): Promise<void> {
    if (!(await this.repo.remove(caller.orgId, id))) throw noticeNotFound();
  }

  /** Posts an update; `state: resolved` also resolves the notice. Answers the notice. */
  async addUpdate(caller: StaffCaller, id: number, body: { body: string; state?: string }) {
    const at = this.now();
    const row = await this.ctx.transaction(async (uow) => {
      const repo = this.repo.withTx(uow.trx);
      const found = await repo.find(caller.orgId, id, true);
      if (found === null) throw noticeNotFound();
      await repo.addUpdate({
        notice_id: found.id,
        body: body.body,
        state: body.state ?? null,
        created_by: caller.userId,
        created_at: at,
      });
      if (body.state === 'resolved' && found.status !== 'resolved')
        return repo.update(found.id, { status: 'resolved', resolved_at: at, updated_at: at });
      return repo.update(found.id, { updated_at: at });
    });
    return noticeOut(row, await this.repo.updatesOf([row.id]));
  }

  /** What the storefront and status page show now: live notices for `all` or `customers`. */
  async live(orgSlug: string, placement?: string) {
    const org = await this.orgs.bySlug(orgSlug);
    if (org === null || org.status === 'deleted') throw staffOrgNotFound();
    const now = this.ctx.clock.now();
    const rows = (
      await this.repo.shown(org.id, ['active', 'scheduled'], ['all', 'customers'], placement)
    ).filter((n: NoticeRecord) => isLive(n, now));
    const updates = await this.repo.updatesOf(rows.map((r) => r.id));
    return rows.map((r) => publicNoticeOut(r, updates));
  }
}
