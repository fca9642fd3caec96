/**
 * The game proxy module's public surface: the control API module, its settings, and what an edge
 * node reads (every route with its names, and word when they change).
 */
export { createGameproxyModule, type GameproxyModule, type GameproxyModuleDeps } from './gameproxy-module.ts';
export { gameproxyConfig, type GameproxySettings } from './gameproxy-config.ts';
export type { GameproxyPublishing, PublishedGameRoute } from './gameproxy-interfaces.ts';
export { createGameproxyPublishing } from './publishing/gameproxy-publishing.ts';
