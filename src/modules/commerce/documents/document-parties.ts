import type { OrgSummary } from '../../orgs/index.ts';
import type { CommerceSettings } from '../commerce-config.ts';
import type { DocumentParty, DocumentSeller } from './order-document.ts';

/** What decides and describes the seller of an order: the organization and its shop's settings. */
export interface SellerFacts {
  readonly org: Pick<OrgSummary, 'id' | 'name' | 'billingMode'>;
  readonly storeName: string | null;
  readonly supportEmail: string | null;
  /** The shop's choice under `hybrid`: `organization` (default) or `platform`. */
  readonly sellerOfRecord: string;
}

/** The seller of record and the key of its number sequences (`platform` or `org:<id>`). */
export interface SellerOfRecord {
  readonly key: string;
  readonly seller: DocumentSeller;
}

/**
 * The seller of record by the organization's billing mode: the platform under `platform_mor`, the
 * organization under `merchant_of_record`, and under `hybrid` the shop's `seller_of_record`
 * setting. An unknown mode counts as `platform_mor`, as billing counts it.
 */
export function sellerOfRecord(
  facts: SellerFacts,
  platform: CommerceSettings['platformSeller'],
): SellerOfRecord {
  const mode = facts.org.billingMode;
  const platformSells =
    mode === 'hybrid' ? facts.sellerOfRecord === 'platform' : mode !== 'merchant_of_record';
  if (platformSells) {
    return {
      key: 'platform',
      seller: {
        type: 'platform',
        name: platform.legalName,
        address: platform.address,
        email: null,
        vat_id: platform.vatId,
      },
    };
  }
  return {
    key: `org:${facts.org.id}`,
    seller: {
      type: 'organization',
      name: facts.storeName ?? facts.org.name,
      address: [],
      email: facts.supportEmail,
      vat_id: null,
    },
  };
}

/** An address as the cart stored it (the shopper's fields, kept as given). */
type Address = Record<string, unknown>;

const text = (a: Address, key: string): string =>
  typeof a[key] === 'string' ? (a[key] as string).trim() : '';

/**
 * The buyer: the order's e-mail and its billing address, or its shipping address when it has no
 * billing address. The name is the address's person (or company), else the e-mail.
 */
export function buyerOf(
  email: string | null,
  billing: Address | null,
  shipping: Address | null,
): DocumentParty {
  const a = billing ?? shipping ?? {};
  const person = [text(a, 'first_name'), text(a, 'last_name')].filter((s) => s !== '').join(' ');
  const company = text(a, 'company');
  const name = person !== '' ? person : company !== '' ? company : (email ?? 'Customer');
  const cityLine = [text(a, 'postal_code'), text(a, 'city')].filter((s) => s !== '').join(' ');
  const address = [
    ...(person !== '' && company !== '' ? [company] : []),
    text(a, 'address_1'),
    text(a, 'address_2'),
    cityLine,
    text(a, 'province'),
    text(a, 'country_code').toUpperCase(),
  ].filter((s) => s !== '');
  return { name, address, email, vat_id: null };
}
