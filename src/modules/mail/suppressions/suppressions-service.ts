import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { suppressionNotFound } from '../mail-errors.ts';
import type { RelayAccess } from '../relays/relay-access.ts';
import type { SuppressionsRepository } from './suppressions-repository.ts';
import { suppressionView, type SuppressionView } from './suppression-view.ts';

export interface SuppressionPage {
  readonly items: SuppressionView[];
  readonly total: number;
  readonly page: number;
  readonly limit: number;
}

/** A relay's suppression list (base /client/smtp-relay/{service_id}/suppressions). */
export class SuppressionsService {
  constructor(
    private readonly access: RelayAccess,
    private readonly repo: SuppressionsRepository,
  ) {}

  /** Newest first. */
  async list(owner: OwnerScope, serviceId: number, page: number, limit: number): Promise<SuppressionPage> {
    await this.access.relayFor(owner, serviceId, 'read');
    const { rows, total } = await this.repo.page(serviceId, limit, (page - 1) * limit);
    return { items: rows.map(suppressionView), total, page, limit };
  }

  /** Sends to `address` again. */
  async remove(owner: OwnerScope, serviceId: number, address: string): Promise<void> {
    await this.access.relayFor(owner, serviceId, 'write');
    if (!(await this.repo.remove(serviceId, address.trim().toLowerCase()))) throw suppressionNotFound();
  }
}
