/** The single-node gateway `npm start` runs under DATA_DIR/objectstore (to be built). */
import type { Logger } from '../../../kernel/log/logger.ts';

export interface LocalGateway {
  readonly url: string;
  readonly dir: string;
  readonly adminAccessKey: string;
  readonly adminSecretKey: string;
  stop(): Promise<void>;
}

export function localGatewayInstalled(): boolean {
  return false;
}

export async function startLocalGateway(_options: { dir: string; log: Logger }): Promise<LocalGateway> {
  throw new Error('local gateway: not built yet');
}
