import type { Bus } from './bus.ts';

/**
 * A typed domain event: a name (its bus channel) and a parser that turns what arrived into the
 * payload or null (a bus delivers whatever was sent; other versions of a process may be running).
 * Declared once by the module that owns it, in its `<m>-events.ts`; other modules subscribe
 * through that module's index.
 */
export interface EventType<P> {
  readonly name: string;
  parse(message: unknown): P | null;
}

export function defineEvent<P>(name: string, parse: (message: unknown) => P | null): EventType<P> {
  return { name, parse };
}

export type Unsubscribe = () => Promise<void>;

/** Typed publish/subscribe over the bus: in process, and across processes when Redis is set. */
export interface EventBus {
  publish<P>(type: EventType<P>, payload: P): Promise<void>;
  /** Handlers get only well-formed payloads; malformed messages are dropped. */
  subscribe<P>(type: EventType<P>, handler: (payload: P) => void): Promise<Unsubscribe>;
}

export function eventBus(bus: Bus): EventBus {
  return {
    publish: (type, payload) => bus.publish(type.name, payload),
    subscribe: (type, handler) =>
      bus.subscribe(type.name, (message) => {
        const payload = type.parse(message);
        if (payload !== null) handler(payload);
      }),
  };
}
