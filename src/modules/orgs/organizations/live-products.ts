/**
 * Live products of an organization: what must go before the organization can be deleted, each
 * with what happens to it when it ends. Modules that hold an organization's products register a
 * source (the DNS module its zones; the services registry its active services).
 */
export interface LiveProduct {
  readonly type: string;
  readonly id: number;
  readonly name: string;
  /** What happens to it when it ends ("stops answering" for a DNS zone). */
  readonly ends: string;
}

export type LiveProductSource = (orgId: number) => Promise<readonly LiveProduct[]>;

export class LiveProducts {
  private readonly sources: LiveProductSource[] = [];

  add(source: LiveProductSource): void {
    this.sources.push(source);
  }

  async of(orgId: number): Promise<LiveProduct[]> {
    return (await Promise.all(this.sources.map((s) => s(orgId)))).flat();
  }
}
