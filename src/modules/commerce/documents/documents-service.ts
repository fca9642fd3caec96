import type { Principal } from '../../../kernel/auth/principal.ts';
import { API_PREFIX } from '../../../kernel/http/api-prefix.ts';
import { orderNotFound } from '../commerce-errors.ts';
import type { OrderAccessTokens } from '../placed-orders/order-access-token.ts';
import { renderDocumentPdf } from './document-pdf.ts';
import { orderDocumentView, type OrderDocumentView } from './document-view.ts';
import { documentNotFound } from './documents-errors.ts';
import type { DocumentsRepository, StoredDocument } from './documents-repository.ts';

/** The calling publishable key: its organization and mode. */
type StoreCaller = Pick<Principal, 'orgId' | 'keyMode'>;

/** A document's PDF: its number names the file. */
export interface DocumentPdf {
  readonly number: string;
  readonly body: Buffer;
}

/**
 * An order's documents as its shopper reads them (the Store API, with the order's access token,
 * every miss the same 404 as the order's read) and as the shop's staff read them (the Commerce
 * API). PDFs are rendered from the stored snapshot, never from the live order.
 */
export class DocumentsService {
  constructor(
    private readonly repo: DocumentsRepository,
    private readonly tokens: OrderAccessTokens,
  ) {}

  async forShopper(caller: StoreCaller, slug: string, orderId: number, token: string | undefined) {
    const orgId = await this.shopperOrder(caller, orderId, token);
    const base = `${API_PREFIX}/orgs/${slug}/store/orders/${orderId}/documents`;
    const query = `?token=${encodeURIComponent(token!)}`;
    return {
      documents: (await this.repo.ofOrder(orgId, orderId)).map((d) =>
        orderDocumentView(d, `${base}/${d.document.number}${query}`),
      ),
    };
  }

  async pdfForShopper(caller: StoreCaller, orderId: number, number: string, token: string | undefined) {
    const orgId = await this.shopperOrder(caller, orderId, token);
    return pdfOf(await this.repo.ofOrder(orgId, orderId), number);
  }

  /** The documents of an order of the organization (404 for an order it does not have). */
  async forStaff(orgId: number, slug: string, orderId: number): Promise<OrderDocumentView[]> {
    if ((await this.repo.order(orgId, orderId)) === null) throw orderNotFound();
    return this.ofOrder(orgId, slug, orderId);
  }

  /** The documents of an order known to be the organization's (its read adds them). */
  async ofOrder(orgId: number, slug: string, orderId: number): Promise<OrderDocumentView[]> {
    const base = `${API_PREFIX}/orgs/${slug}/commerce/orders/${orderId}/documents`;
    return (await this.repo.ofOrder(orgId, orderId)).map((d) =>
      orderDocumentView(d, `${base}/${d.document.number}`),
    );
  }

  async pdfForStaff(orgId: number, orderId: number, number: string): Promise<DocumentPdf> {
    if ((await this.repo.order(orgId, orderId)) === null) throw orderNotFound();
    return pdfOf(await this.repo.ofOrder(orgId, orderId), number);
  }

  /** The order's organization when the token opens this order of the key's shop and mode; else 404. */
  private async shopperOrder(
    caller: StoreCaller,
    orderId: number,
    token: string | undefined,
  ): Promise<number> {
    const access = token === undefined ? null : this.tokens.verify(token);
    if (access === null || access.orgId !== caller.orgId || access.orderId !== orderId) throw orderNotFound();
    const order = await this.repo.order(caller.orgId, orderId);
    if (order === null || order.mode !== caller.keyMode) throw orderNotFound();
    return caller.orgId;
  }
}

async function pdfOf(documents: readonly StoredDocument[], number: string): Promise<DocumentPdf> {
  const found = documents.find((d) => d.document.number === number);
  if (found === undefined) throw documentNotFound();
  return { number, body: await renderDocumentPdf(found.document) };
}
