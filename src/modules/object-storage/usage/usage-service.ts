/** Usage of a service over time: the hourly meter's readings between two instants. */
import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { ObjectStorageContext } from '../object-storage-context.ts';
import type { StorageAccess } from '../storage/storage-access.ts';
import type { UsageRepository } from './usage-repository.ts';
import { usagePointView, type UsageView } from './usage-view.ts';

const DAY_MS = 24 * 3600_000;
/** The longest span one request may ask for (a quarter, in days). */
export const MAX_SPAN_DAYS = 93;

export class UsageService {
  constructor(
    readonly ctx: ObjectStorageContext,
    readonly access: StorageAccess,
    private readonly repo: UsageRepository,
  ) {}

  async usage(
    owner: OwnerScope,
    serviceId: number,
    query: { from?: string | undefined; to?: string | undefined },
  ): Promise<UsageView> {
    const { from, to } = this.span(query);
    await this.access.serviceFor(owner, serviceId, 'read');
    const rows = await this.repo.between(serviceId, from, to);
    return {
      service_id: serviceId,
      from: from.toISOString(),
      to: to.toISOString(),
      points: rows.map(usagePointView),
    };
  }

  /** `to` defaults to now, `from` to a day before `to`; from < to, at most MAX_SPAN_DAYS apart. */
  private span(query: { from?: string | undefined; to?: string | undefined }): { from: Date; to: Date } {
    const to = query.to !== undefined ? new Date(query.to) : new Date(this.ctx.clock.now());
    const from = query.from !== undefined ? new Date(query.from) : new Date(to.getTime() - DAY_MS);
    if (from.getTime() >= to.getTime())
      throw invalidField(['query', 'from'], 'from must be before to', query.from ?? from.toISOString());
    if (to.getTime() - from.getTime() > MAX_SPAN_DAYS * DAY_MS)
      throw invalidField(
        ['query', 'from'],
        `from and to may be at most ${MAX_SPAN_DAYS} days apart`,
        query.from ?? from.toISOString(),
      );
    return { from, to };
  }
}
