/**
 * The game edge's one public surface (a data plane beside src/dns: no HTTP framework, no database).
 * Floors, each importing only its own or lower ones: codec/ (0) → routes (1) → connections (2) →
 * server (3). So far the codec: Java Edition framing, handshake, status, ping, login start, and the
 * legacy ping of clients before 1.7.
 */
export { FrameReader, type FrameError } from './codec/frame-reader.ts';
export {
  HANDSHAKE_ID,
  MAX_HANDSHAKE_BYTES,
  MAX_HOST_BYTES,
  parseHandshake,
  type Handshake,
  type NextState,
} from './codec/handshake.ts';
export { routingHost } from './codec/host-name.ts';
export {
  LEGACY_PING_FIRST_BYTE,
  LEGACY_PING_MAX_BYTES,
  LEGACY_PROTOCOL,
  legacyPingResponse,
  parseLegacyPing,
  type LegacyPing,
} from './codec/legacy-ping.ts';
export { parseLoginStartName } from './codec/login-start.ts';
export { PacketReader } from './codec/packet-reader.ts';
export {
  frame,
  handshakeFrame,
  loginDisconnect,
  pong,
  statusResponse,
  stringField,
} from './codec/packet-writer.ts';
export {
  MALFORMED,
  NEED_MORE,
  readVarInt,
  varIntSize,
  VARINT_MAX_BYTES,
  writeVarInt,
} from './codec/varint.ts';
export {
  parseProxyV2,
  plainAddress,
  PROXY_V2_SIGNATURE,
  proxyV2Header,
  type ProxiedAddresses,
} from './codec/proxy-v2.ts';
export { RouteTable, type EdgeRoute, type EdgeUpstream, type RouteNames } from './routes/route-table.ts';
export {
  liveStatus,
  offlineStatus,
  unknownAddressStatus,
  type ServerStatus,
} from './routes/status-answer.ts';
export { StatusCache, type CacheResult } from './connections/status-cache.ts';
export {
  ConnectionLimits,
  networkOf,
  type ConnectionLimitSettings,
} from './connections/connection-limits.ts';
export { EdgeCounters } from './connections/edge-counters.ts';
export type { EdgeSettings } from './connections/player-connection.ts';
export { startEdgeServer, type EdgeServer, type EdgeServerOptions } from './server/edge-server.ts';
