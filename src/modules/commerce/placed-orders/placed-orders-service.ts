import type { Principal } from '../../../kernel/auth/principal.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import { orderNotFound } from '../commerce-errors.ts';
import type { OrderAccessTokens } from './order-access-token.ts';
import { placedOrderView, type PlacedOrderView } from './placed-order-view.ts';
import type { PlacedOrdersRepository, PlacedOrderWithItems } from './placed-orders-repository.ts';

/** The calling publishable key: its organization and mode. */
type StoreCaller = Pick<Principal, 'orgId' | 'keyMode'>;

/**
 * A shopper's orders through the Store API: read with the order's access token, or found by
 * e-mail and order number. Every miss — unknown order, wrong token, another shop's or another
 * mode's order — is the same 404, so nothing tells an order that exists from one that does not.
 */
export class PlacedOrdersService {
  constructor(
    private readonly repo: PlacedOrdersRepository,
    private readonly tokens: OrderAccessTokens,
  ) {}

  async read(caller: StoreCaller, orderId: number, token: string | undefined): Promise<PlacedOrderView> {
    const access = token === undefined ? null : this.tokens.verify(token);
    if (access === null || access.orgId !== caller.orgId || access.orderId !== orderId) throw orderNotFound();
    const found = this.visible(caller, await this.repo.orderWithItems(caller.orgId!, orderId));
    return placedOrderView(found.order, found.items);
  }

  async lookup(
    caller: StoreCaller,
    email: string,
    orderNumber: string | number,
  ): Promise<{ order: PlacedOrderView; access_token: string }> {
    const displayId = displayIdOf(orderNumber);
    const found = this.visible(caller, await this.repo.byDisplayIdAndEmail(caller.orgId!, displayId, email));
    return {
      order: placedOrderView(found.order, found.items),
      access_token: this.tokens.issue(caller.orgId!, Number(found.order.id)),
    };
  }

  /** The order when the key may see it: its organization's, in the key's mode. */
  private visible(caller: StoreCaller, found: PlacedOrderWithItems | null): PlacedOrderWithItems {
    if (found === null || found.order.mode !== caller.keyMode) throw orderNotFound();
    return found;
  }
}

const MAX_DISPLAY_ID = 2_147_483_647;

/** `1001`, `"1001"` or `"#1001"` → 1001; anything else is a 422 naming the field. */
export function displayIdOf(given: string | number): number {
  const text = typeof given === 'number' ? String(given) : given.trim().replace(/^#/, '');
  const n = /^\d{1,10}$/.test(text) ? Number(text) : NaN;
  if (!(n >= 1 && n <= MAX_DISPLAY_ID))
    throw invalidField(['body', 'order_number'], 'An order number: 1001 or "#1001"', given);
  return n;
}
