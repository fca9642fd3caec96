import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { CommerceContext } from '../commerce-context.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import type { MerchantProfileBody } from './finance-schemas.ts';
import { MerchantProfileRepository } from './merchant-profile-repository.ts';

/**
 * The merchant profile (docs/commerce.md, "Merchant profile"): the business and the people behind
 * it, as a payment provider's onboarding asks for them (Stripe's account `individual` / `company`
 * and `persons`). It holds the owners' identities, so no key reads or writes it (the gate answers
 * 403 `people_only`); an owner or admin does, signed in. Its event carries no identity.
 */
export class MerchantProfileService {
  private readonly repo: MerchantProfileRepository;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
  ) {
    this.repo = new MerchantProfileRepository(ctx.db);
  }

  async get(orgId: number) {
    return { org_id: orgId, profile: await profileOf(this.repo, orgId) };
  }

  async put(orgId: number, userId: number, body: MerchantProfileBody) {
    const today = new Date(this.ctx.clock.now()).toISOString().slice(0, 10);
    checkBirthDate(body.representative.date_of_birth, today, ['body', 'representative', 'date_of_birth']);
    (body.owners ?? []).forEach((o, i) =>
      checkBirthDate(o.date_of_birth, today, ['body', 'owners', i, 'date_of_birth']),
    );
    const share = (body.owners ?? []).reduce((a, o) => a + o.ownership_percent, 0);
    if (share > 100) throw invalidField(['body', 'owners'], 'Owners hold more than 100 percent', share);
    return this.log.change(orgId, async (uow) => {
      const now = new Date(this.ctx.clock.now());
      const repo = this.repo.withTx(uow.trx);
      await repo.put(orgId, body, userId, now);
      const result = { org_id: orgId, profile: await profileOf(repo, orgId) };
      return { result, events: [['commerce.merchant_profile.updated', { org_id: orgId }]] };
    });
  }
}

async function profileOf(repo: MerchantProfileRepository, orgId: number) {
  const row = await repo.get(orgId);
  if (row === undefined) return null;
  return {
    ...(row.profile as MerchantProfileBody),
    updated_by: Number(row.updated_by),
    updated_at: row.updated_at.toISOString(),
  };
}

/** A real calendar date, in the past. */
function checkBirthDate(text: string, today: string, loc: (string | number)[]): void {
  const d = new Date(`${text}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== text || text >= today)
    throw invalidField(loc, 'A date of birth in the past (YYYY-MM-DD)', text);
}
