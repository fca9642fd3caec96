import type { OrgDirectory } from '../../orgs/index.ts';

/** What the platform takes of a shop's payments. */
export interface FeeTerms {
  readonly billingMode: string;
  readonly percent: string;
}

/** Billing modes in which the platform takes part in the sale and its fee (docs/commerce.md). */
const FEE_MODES: ReadonlySet<string> = new Set(['platform_mor', 'hybrid']);
/** How long terms read from the organizations module are believed. */
const TERMS_TTL_MS = 60_000;

/**
 * The fee terms of each organization, for the ledger's reactions. Those run inside the
 * transaction of a checkout or a refund, where the organizations module (its own connection) must
 * not be read: on the embedded database that would wait on the transaction forever. So the terms
 * are read before, by a hook on every request of the shop's routes (`warm`), and believed for a
 * minute: a changed fee applies to payments captured a minute later at most.
 */
export class FeeTermsCache {
  private readonly terms = new Map<number, FeeTerms & { readonly untilMs: number }>();
  private readonly slugs = new Map<string, number>();

  constructor(
    private readonly orgs: OrgDirectory,
    private readonly now: () => number,
  ) {}

  /** Reads the organization's terms unless known and fresh (outside any transaction). */
  async warm(slug: string): Promise<void> {
    const id = this.slugs.get(slug);
    const known = id === undefined ? undefined : this.terms.get(id);
    if (known !== undefined && known.untilMs > this.now()) return;
    const org = await this.orgs.bySlug(slug);
    if (org === null) return;
    this.slugs.set(slug, org.id);
    this.terms.set(org.id, {
      billingMode: org.billingMode,
      percent: org.platformFeePercent,
      untilMs: this.now() + TERMS_TTL_MS,
    });
  }

  /** The fee percent that applies to the organization's captures ("0" when none). */
  percentOf(orgId: number): string {
    const terms = this.terms.get(orgId);
    if (terms === undefined)
      throw new Error(`fee terms of organization ${orgId} were not read before its transaction`);
    return FEE_MODES.has(terms.billingMode) ? terms.percent : '0';
  }
}
