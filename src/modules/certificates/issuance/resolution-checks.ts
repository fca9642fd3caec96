import { Resolver } from 'node:dns/promises';

/**
 * What a name resolves to, asked through ACME_CHECK_RESOLVER (the system resolver when unset):
 * the checks made before asking a CA to validate, and the real-time challenge status.
 * An absent name or record answers an empty list; a resolver failure answers null.
 */
export class ResolutionChecks {
  constructor(private readonly server: string | null) {}

  private resolver(): Resolver {
    const r = new Resolver({ timeout: 2000, tries: 2 });
    if (this.server !== null) r.setServers([this.server]);
    return r;
  }

  async txt(name: string): Promise<string[] | null> {
    return this.ask(async (r) => (await r.resolveTxt(name)).map((chunks) => chunks.join('')));
  }

  async addresses(name: string): Promise<string[] | null> {
    const r = this.resolver();
    const [v4, v6] = await Promise.all([
      this.ask(() => r.resolve4(name), r),
      this.ask(() => r.resolve6(name), r),
    ]);
    if (v4 === null && v6 === null) return null;
    return [...(v4 ?? []), ...(v6 ?? [])];
  }

  async nameservers(name: string): Promise<string[] | null> {
    return this.ask(async (r) => (await r.resolveNs(name)).map((n) => n.toLowerCase().replace(/\.$/, '')));
  }

  private async ask<T>(
    query: (r: Resolver) => Promise<T[]>,
    resolver = this.resolver(),
  ): Promise<T[] | null> {
    try {
      return await query(resolver);
    } catch (error) {
      const code = (error as { code?: string }).code;
      // No such name, or no record of the type: an answer, not a failure.
      if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
      return null;
    }
  }
}
