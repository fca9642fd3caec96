import type { Runtime } from '../../../kernel/runtime/runtime.ts';
import { gameproxyContext } from '../gameproxy-context.ts';
import { routesChanged } from '../gameproxy-events.ts';
import type { GameproxyPublishing } from '../gameproxy-interfaces.ts';

/** What an edge node reads (TODO: the routes with their names, from the database). */
export function createGameproxyPublishing(runtime: Runtime): GameproxyPublishing {
  const ctx = gameproxyContext(runtime);
  return {
    routes: () => Promise.resolve([]),
    onRoutesChanged: (handler) => ctx.events.subscribe(routesChanged, (e) => handler(e.routeIds)),
  };
}
