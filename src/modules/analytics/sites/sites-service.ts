import type { AnalyticsContext } from '../analytics-context.ts';
import { siteNotFound } from '../analytics-errors.ts';
import type { SitesRepository } from './sites-repository.ts';

/** The organization's public site key: made on first use, cached in memory both ways. */
export class SitesService {
  private readonly byKeyCache = new Map<string, number>();
  private readonly byOrgCache = new Map<number, string>();

  constructor(
    private readonly ctx: AnalyticsContext,
    private readonly repo: SitesRepository,
    private readonly random: (bytes: number) => Buffer,
  ) {}

  async keyOf(orgId: number): Promise<string> {
    const cached = this.byOrgCache.get(orgId);
    if (cached !== undefined) return cached;
    const row = await this.repo.ensure(
      orgId,
      `site_${this.random(12).toString('hex')}`,
      new Date(this.ctx.clock.now()),
    );
    this.remember(row.org_id, row.site_key);
    return row.site_key;
  }

  /** The organization of a site key; 404 for a key nobody holds. */
  async orgOf(siteKey: string): Promise<number> {
    const cached = this.byKeyCache.get(siteKey);
    if (cached !== undefined) return cached;
    const row = await this.repo.byKey(siteKey);
    if (row === null) throw siteNotFound();
    this.remember(Number(row.org_id), row.site_key);
    return Number(row.org_id);
  }

  private remember(orgId: number, key: string): void {
    this.byKeyCache.set(key, Number(orgId));
    this.byOrgCache.set(Number(orgId), key);
  }
}
