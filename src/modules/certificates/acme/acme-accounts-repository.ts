import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AcmeAccountRow, CertificatesTables } from '../certificates-tables.ts';

type Db = Kysely<CertificatesTables> | Transaction<CertificatesTables>;

export type AcmeAccount = Selectable<AcmeAccountRow>;

/** The ACME accounts, one per provider: its sealed key, and its URL once registered with the CA. */
export class AcmeAccountsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<CertificatesTables>): AcmeAccountsRepository {
    return new AcmeAccountsRepository(trx);
  }

  async find(provider: string): Promise<AcmeAccount | null> {
    const row = await this.db
      .selectFrom('certificates_acme_accounts')
      .selectAll()
      .where('provider', '=', provider)
      .executeTakeFirst();
    return row ?? null;
  }

  /** The provider's account, which must exist (just stored). */
  async get(provider: string): Promise<AcmeAccount> {
    return this.db
      .selectFrom('certificates_acme_accounts')
      .selectAll()
      .where('provider', '=', provider)
      .executeTakeFirstOrThrow();
  }

  /** Stores the provider's account key unless another process stored one first (that one stands). */
  async insertKey(provider: string, directoryUrl: string, sealedKey: Uint8Array): Promise<void> {
    await this.db
      .insertInto('certificates_acme_accounts')
      .values({ provider, directory_url: directoryUrl, account_key: sealedKey })
      .onConflict((oc) => oc.column('provider').doNothing())
      .execute();
  }

  /** A new key at another CA: the account there is yet to be registered. */
  async replaceKey(provider: string, directoryUrl: string, sealedKey: Uint8Array): Promise<void> {
    await this.db
      .updateTable('certificates_acme_accounts')
      .set({ directory_url: directoryUrl, account_key: sealedKey, account_url: null })
      .where('provider', '=', provider)
      .execute();
  }

  async setAccountUrl(provider: string, accountUrl: string): Promise<void> {
    await this.db
      .updateTable('certificates_acme_accounts')
      .set({ account_url: accountUrl })
      .where('provider', '=', provider)
      .execute();
  }
}
