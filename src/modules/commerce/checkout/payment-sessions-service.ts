import { randomUUID } from 'node:crypto';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { PaymentProvider, PaymentRecord } from '../../../kernel/payments/payment-provider.ts';
import type { CartScope, CartsService } from '../carts/carts-service.ts';
import type { CommerceContext } from '../commerce-context.ts';
import type { CommercePaymentSessionRow } from '../commerce-tables.ts';
import { paymentNotRequired } from './checkout-errors.ts';
import {
  addressBudgetKey,
  addressPaymentBudget,
  cartBudgetKey,
  cartPaymentBudget,
} from './payment-budgets.ts';
import { PaymentSessionsRepository } from './payment-sessions-repository.ts';
import { paymentSessionView, type PaymentSessionView } from './payment-session-view.ts';
import type { ShopPaymentProviders } from './shop-payment-providers.ts';

export interface PaymentSessionInput {
  readonly provider: string;
  /** A method to confirm with at once (`pm_…` at Stripe); else the shopper's page confirms. */
  readonly payment_method?: string;
}

/**
 * Payment sessions (docs/commerce.md, "Checkout"): a cart's payment at one provider, for the
 * cart's total. Starting one when one exists for the same provider and amount refreshes it (and
 * confirms it with a new method, after a decline); a changed total cancels the stale payment at
 * its provider and drops it, as does choosing another provider. Runs with the cart row locked, so
 * two calls for one cart never start two payments.
 */
export class PaymentSessionsService {
  private readonly repo: PaymentSessionsRepository;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly carts: CartsService,
    private readonly providers: ShopPaymentProviders,
  ) {
    this.repo = new PaymentSessionsRepository(ctx.db);
  }

  /** Counts a payment attempt against both limits (after the cart is known to be the caller's). */
  async chargeAttempt(scope: CartScope, cartId: number, ip: string): Promise<void> {
    await this.ctx.budgets.charge(cartPaymentBudget, cartBudgetKey(scope.orgId, cartId));
    await this.ctx.budgets.charge(addressPaymentBudget, addressBudgetKey(scope.orgId, ip));
  }

  async start(
    scope: CartScope,
    cartId: number,
    input: PaymentSessionInput,
    ip: string,
  ): Promise<{ payment_session: PaymentSessionView }> {
    await this.carts.load(scope, cartId);
    await this.chargeAttempt(scope, cartId, ip);
    return this.ctx.transaction(async ({ trx }) => {
      const loaded = await this.carts.lock(trx, scope, cartId);
      if (!(loaded.region?.payment_providers ?? []).includes(input.provider))
        throw invalidField(
          ['body', 'provider'],
          'The cart’s region does not take this provider',
          input.provider,
        );
      const provider = this.providers.get(input.provider);
      if (provider === null)
        throw invalidField(['body', 'provider'], 'This provider is not configured here', input.provider);
      // The gift cards applied pay their part (docs/commerce.md, "Gift cards"): the rest is the session's.
      const total = this.carts.amountDue(loaded);
      if (total === 0) throw paymentNotRequired();
      const currency = loaded.cart.currency_code.toLowerCase();
      const repo = this.repo.withTx(trx);
      let kept: CommercePaymentSessionRow | null = null;
      for (const s of await repo.ofCart(cartId)) {
        const current =
          s.provider === input.provider && Number(s.amount_minor) === total && s.currency_code === currency;
        if (current && kept === null) kept = s;
        else await this.drop(repo, s);
      }
      const now = new Date(this.ctx.clock.now());
      let record = kept === null ? null : await this.refresh(provider, kept, input.payment_method);
      if (kept !== null && record?.status === 'canceled') {
        await repo.delete(Number(kept.id));
        kept = null;
      }
      if (kept === null || record === null) {
        record = await provider.authorize({
          amountMinor: total,
          currency,
          paymentMethod: input.payment_method ?? null,
          idempotencyKey: `cart-${cartId}-payment-${randomUUID()}`,
          metadata: { org_id: String(scope.orgId), cart_id: String(cartId) },
          description: `Order from cart ${cartId}`,
        });
        kept = await repo.insert(
          {
            org_id: scope.orgId,
            cart_id: cartId,
            provider: input.provider,
            reference: record.reference,
            amount_minor: total,
            currency_code: currency,
            status: record.status,
          },
          now,
        );
      } else kept = await repo.setStatus(Number(kept.id), record.status, now);
      return { payment_session: paymentSessionView(kept, record) };
    });
  }

  /** Where the session's payment stands; confirmed with `method` when it still wants one. */
  private async refresh(
    provider: PaymentProvider,
    session: CommercePaymentSessionRow,
    method: string | undefined,
  ): Promise<PaymentRecord> {
    const record = await provider.retrieve(session.reference);
    const wantsMethod = record.status === 'requires_payment_method' || record.status === 'declined';
    if (method === undefined || !wantsMethod) return record;
    return provider.confirm(session.reference, method, `cart-${session.cart_id}-confirm-${randomUUID()}`);
  }

  /** A stale session: its payment released at its provider (best effort), the row dropped. */
  private async drop(repo: PaymentSessionsRepository, session: CommercePaymentSessionRow): Promise<void> {
    const provider = this.providers.get(session.provider);
    await provider?.cancel(session.reference).catch(() => undefined);
    await repo.delete(Number(session.id));
  }
}
