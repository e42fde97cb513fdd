/**
 * A tiny typed event bus.
 * `on(name, handler)` returns the unsubscribe function; `emit` calls handlers in subscription order.
 * A handler that throws never breaks the emitter or the other handlers: the exception goes to `onHandlerError`.
 */
export interface EventBus<M> {
  on<K extends keyof M>(name: K, handler: (payload: M[K]) => void): () => void;
  emit<K extends keyof M>(name: K, payload: M[K]): void;
  /** Number of handlers of one event (or of all events). */
  count(name?: keyof M): number;
  clear(): void;
}

/**
 * Creates an event bus over the map `M` (event name → payload type).
 * @param onHandlerError receives exceptions thrown by handlers (default: swallowed).
 */
export function createEventBus<M>(onHandlerError?: (error: unknown, name: keyof M) => void): EventBus<M> {
  const handlers = new Map<keyof M, Set<(payload: never) => void>>();
  return {
    on(name, handler) {
      let set = handlers.get(name);
      if (!set) handlers.set(name, (set = new Set()));
      // Wrap so the same function can be subscribed twice and removed independently.
      const entry = (payload: never) => handler(payload);
      set.add(entry);
      return () => {
        set.delete(entry);
      };
    },
    emit(name, payload) {
      const set = handlers.get(name);
      if (!set) return;
      for (const h of [...set]) {
        try {
          (h as (p: typeof payload) => void)(payload);
        } catch (error) {
          onHandlerError?.(error, name);
        }
      }
    },
    count(name) {
      if (name !== undefined) return handlers.get(name)?.size ?? 0;
      let n = 0;
      for (const s of handlers.values()) n += s.size;
      return n;
    },
    clear() {
      handlers.clear();
    },
  };
}
