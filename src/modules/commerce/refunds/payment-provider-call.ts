import { PaymentProviderError, type PaymentProvider } from '../../../kernel/payments/payment-provider.ts';
import type { ShopPaymentProviders } from '../checkout/shop-payment-providers.ts';
import type { CommerceContext } from '../commerce-context.ts';
import { paymentProviderFailed } from './refund-errors.ts';

/**
 * The answer of the payment's provider, or 502 `commerce.payment_provider_failed` naming it
 * (unreachable, refused, or no longer configured): the caller's transaction then undoes everything.
 */
export async function callProvider<T>(
  ctx: CommerceContext,
  providers: ShopPaymentProviders,
  providerId: string,
  work: (provider: PaymentProvider) => Promise<T>,
): Promise<T> {
  const provider = providers.get(providerId);
  if (provider === null) throw paymentProviderFailed(providerId);
  try {
    return await work(provider);
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    ctx.log.warn({ err: error, provider: providerId }, 'refund: payment provider failed');
    throw paymentProviderFailed(providerId);
  }
}
