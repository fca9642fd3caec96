import { defineEvent } from '../../kernel/events/domain-events.ts';

/** Routes or their verified names changed: edge nodes reload their route table. */
export interface RoutesChangedEvent {
  /** The routes concerned (a node may reload only these; all when empty). */
  readonly routeIds: readonly number[];
}

/**
 * Events of the game proxy module. `gameproxy.routes-changed` follows every committed change that
 * alters what an edge node routes: a route made, changed or deleted, a custom domain verified,
 * failed or removed. Edge nodes also reload on a timer, so a lost message delays, never loses.
 */
export const routesChanged = defineEvent<RoutesChangedEvent>('gameproxy.routes-changed', (m) => {
  if (typeof m !== 'object' || m === null) return null;
  const ids = (m as Partial<RoutesChangedEvent>).routeIds;
  if (!Array.isArray(ids) || !ids.every((i) => typeof i === 'number')) return null;
  return { routeIds: ids };
});
