import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { UnitOfWork } from '../../../kernel/db/unit-of-work.ts';
import type { CommerceContext } from '../commerce-context.ts';
import type { CommerceTables } from '../commerce-tables.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { currencyCodeOf, majorUnits, minorUnits } from '../money/money-amounts.ts';
import { moveBalance } from './gift-card-balance.ts';
import type { GiftCardCodes } from './gift-card-codes.ts';
import { giftCardNotFound } from './gift-card-errors.ts';
import {
  giftCardTransactionView,
  giftCardView,
  type GiftCardDetailView,
  type GiftCardTransactionView,
} from './gift-card-view.ts';
import { GiftCardsRepository, type GiftCardRow } from './gift-cards-repository.ts';

export interface IssueGiftCardInput {
  value: number;
  currency_code: string;
  expires_at?: string | null;
  note?: string | null;
}

export interface UpdateGiftCardInput {
  status?: 'active' | 'disabled';
  expires_at?: string | null;
  note?: string | null;
}

/** What issuing answers: the card, and its code, shown this once. */
export type IssuedGiftCard = GiftCardDetailView & { code: string };

/** A card to issue, in minor units: by the shop, or bought with an order. */
export interface GiftCardToIssue {
  readonly valueMinor: number;
  readonly currency: string;
  readonly expiresAt: Date | null;
  readonly note: string | null;
  readonly orderId: number | null;
}

/**
 * The shop's gift cards (docs/commerce.md, "Gift cards"): issued with a code shown once (stored as
 * a keyed hash and its last four characters), disabled or given an expiry, adjusted up or down
 * (never below 0). Every balance change is a transaction row written with the card's row locked,
 * and every change announces `commerce.gift_card.created|updated|adjusted` in its transaction.
 */
export class GiftCardsService {
  private readonly repo: GiftCardsRepository;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
    private readonly codes: GiftCardCodes,
  ) {
    this.repo = new GiftCardsRepository(ctx.db);
  }

  private now(): Date {
    return new Date(this.ctx.clock.now());
  }

  async create(orgId: number, input: IssueGiftCardInput): Promise<IssuedGiftCard> {
    const currency = currencyCodeOf(input.currency_code, ['body', 'currency_code']);
    const valueMinor = minorUnits(input.value, currency, ['body', 'value']);
    if (valueMinor === 0)
      throw invalidField(['body', 'value'], 'A gift card is worth more than 0', input.value);
    const expiresAt = this.expiry(input.expires_at);
    return this.ctx.transaction(async (uow) => {
      const { card, code } = await this.issue(uow, orgId, {
        valueMinor,
        currency,
        expiresAt,
        note: input.note ?? null,
        orderId: null,
      });
      return { ...giftCardView(card, this.now()), code };
    });
  }

  /**
   * Issues one card in the caller's transaction: a fresh code (a clash with another card's, 80
   * random bits, is drawn again), the card with its balance, the `issued` transaction, and
   * `commerce.gift_card.created`. The code is answered to the caller and kept nowhere.
   */
  async issue(
    uow: UnitOfWork<CommerceTables>,
    orgId: number,
    wanted: GiftCardToIssue,
  ): Promise<{ card: GiftCardRow; code: string }> {
    const repo = this.repo.withTx(uow.trx);
    let code = this.codes.issue();
    while ((await repo.byCodeHash(orgId, this.codes.hash(code))) !== null) code = this.codes.issue();
    const at = this.now();
    const empty = await repo.insert(
      orgId,
      {
        org_id: orgId,
        code_hash: this.codes.hash(code),
        code_last4: this.codes.lastFour(code),
        currency: wanted.currency,
        status: 'active',
        value_minor: wanted.valueMinor,
        balance_minor: 0,
        expires_at: wanted.expiresAt,
        note: wanted.note,
        order_id: wanted.orderId,
      },
      '0',
      at,
    );
    const card = await moveBalance(
      repo,
      empty,
      { kind: 'issued', amountMinor: wanted.valueMinor, orderId: wanted.orderId },
      at,
    );
    await this.log.announce(uow, orgId, 'commerce.gift_card.created', {
      id: Number(card.id),
      currency_code: card.currency,
      value: wanted.valueMinor,
      order_id: wanted.orderId,
    });
    return { card, code };
  }

  async get(
    orgId: number,
    id: number,
  ): Promise<GiftCardDetailView & { transactions: GiftCardTransactionView[] }> {
    const card = await this.repo.byId(orgId, id);
    if (card === null) throw giftCardNotFound();
    const transactions = await this.repo.transactions(id);
    return {
      ...giftCardView(card, this.now()),
      transactions: transactions.map((t) => giftCardTransactionView(t, card.currency)),
    };
  }

  async update(orgId: number, id: number, input: UpdateGiftCardInput): Promise<GiftCardDetailView> {
    const expiresAt = input.expires_at === undefined ? undefined : this.expiry(input.expires_at);
    return this.log.change(orgId, async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      const card = await repo.byId(orgId, id, true);
      if (card === null) throw giftCardNotFound();
      const updated = await repo.update(
        id,
        {
          ...(input.status !== undefined ? { status: input.status } : {}),
          ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
          ...(input.note !== undefined ? { note: input.note } : {}),
        },
        this.now(),
      );
      return {
        result: giftCardView(updated, this.now()),
        events: [['commerce.gift_card.updated', { id, status: updated.status }]],
      };
    });
  }

  /** Adds `amount` (major units, negative to take) to the balance; below 0 is a 422 naming `amount`. */
  async adjust(orgId: number, id: number, amount: number, note: string | null): Promise<GiftCardDetailView> {
    return this.log.change(orgId, async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      const card = await repo.byId(orgId, id, true);
      if (card === null) throw giftCardNotFound();
      const delta = Math.sign(amount) * minorUnits(Math.abs(amount), card.currency, ['body', 'amount']);
      if (delta === 0) throw invalidField(['body', 'amount'], 'An adjustment moves the balance', amount);
      if (Number(card.balance_minor) + delta < 0)
        throw invalidField(
          ['body', 'amount'],
          `The balance is ${majorUnits(card.balance_minor, card.currency)}: it cannot go below 0`,
          amount,
        );
      const updated = await moveBalance(
        repo,
        card,
        { kind: 'adjusted', amountMinor: delta, note },
        this.now(),
      );
      return {
        result: giftCardView(updated, this.now()),
        events: [
          [
            'commerce.gift_card.adjusted',
            { id, amount: delta, balance: Number(updated.balance_minor), reason: 'adjustment' },
          ],
        ],
      };
    });
  }

  private expiry(given: string | null | undefined): Date | null {
    if (given === undefined || given === null) return null;
    const at = new Date(given);
    if (Number.isNaN(at.getTime())) throw invalidField(['body', 'expires_at'], 'Not a date-time', given);
    return at;
  }
}
