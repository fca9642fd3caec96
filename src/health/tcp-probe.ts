import { connect } from 'node:net';
import { probeErrorText, timeoutText } from './probe-error-text.ts';
import { ForbiddenTargetError, type TargetGuard } from './target-guard.ts';
import type { ProbeVerdict } from './health-target.ts';

export interface TcpProbeRequest {
  readonly address: string;
  readonly port: number;
  readonly timeoutMs: number;
  readonly timeoutS: number;
  /** The local address to connect from; undefined → the system's choice. */
  readonly localAddress?: string | undefined;
}

/**
 * A completed TCP connect within the timeout is healthy; the socket is closed at once without
 * sending anything. Throws ForbiddenTargetError when the guard refuses the address.
 */
export function tcpProbe(req: TcpProbeRequest, guard: TargetGuard): Promise<ProbeVerdict> {
  // Connect time: the last moment before a socket opens.
  if (!guard(req.address)) return Promise.reject(new ForbiddenTargetError(req.address));
  return new Promise((resolve) => {
    const socket = connect({
      host: req.address,
      port: req.port,
      ...(req.localAddress !== undefined ? { localAddress: req.localAddress } : {}),
    });
    const finish = (verdict: ProbeVerdict): void => {
      clearTimeout(timer);
      socket.removeAllListeners();
      socket.on('error', () => {});
      socket.destroy();
      resolve(verdict);
    };
    const timer = setTimeout(() => finish(timeoutText(req.timeoutS)), req.timeoutMs);
    socket.once('connect', () => finish(null));
    socket.once('error', (error) => finish(probeErrorText(error, { duringTls: false })));
  });
}
