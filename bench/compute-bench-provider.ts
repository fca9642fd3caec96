/**
 * The PVE adapter the compute listing bench's own parties list with (the client, the bare relay),
 * configured for the local PVE-shaped server of bench/compute-pve-child.ts.
 */
import { PveProvider } from '../src/modules/compute/index.ts';

export interface BenchPveAccess {
  readonly url: string;
  readonly tokenId: string;
  readonly tokenSecret: string;
  readonly nodes: string[];
}

export function benchPveProvider({ url, tokenId, tokenSecret, nodes }: BenchPveAccess): PveProvider {
  return new PveProvider({
    url,
    tokenId,
    tokenSecret,
    caFile: null,
    storage: null,
    backupStorage: 'local',
    isoStorage: 'local',
    nodes,
  });
}
