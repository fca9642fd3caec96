import { computeUnavailable } from '../compute-errors.ts';
import type { ComputeProvider } from '../provider/compute-provider.ts';

/**
 * The hypervisor cluster the module talks to: the PVE adapter when PVE_URL is set, a local engine
 * once the application wires one (useProvider), else none (VPS products are not orderable).
 */
export class ProviderHolder {
  private provider: ComputeProvider | null;

  constructor(initial: ComputeProvider | null) {
    this.provider = initial;
  }

  use(provider: ComputeProvider | null): void {
    this.provider = provider;
  }

  current(): ComputeProvider | null {
    return this.provider;
  }

  /** The provider, or 503 when the platform has none. */
  require(): ComputeProvider {
    if (this.provider === null) throw computeUnavailable();
    return this.provider;
  }
}
