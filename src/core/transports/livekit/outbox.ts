import type { LiveAiError } from '../../errors';
import type { AppMessage } from '../../schemas';

/**
 * Ordered queue of app messages (`chat-msg`, `force-end`) of the LiveKit adapter. A message goes out only
 * when the link is up (the room is connected and not reconnecting) and, for `chat-msg`, the avatar participant is
 * in the room and reachable, or it has waited `agentWaitMs` for it. This keeps a chat typed during or right after
 * a reconnect from being published into a room the avatar has not rejoined yet (it would be dropped).
 */
export interface Outbox {
  /** Queues `message`; resolves once it was handed to the room, rejects with the error given to `failAll`. */
  push(message: AppMessage): Promise<void>;
  /** Re-checks the gates and sends what may go, in order. Call it on every connection or participant change. */
  kick(): void;
  /** Rejects every queued message with `error` (the room was left or could not be rejoined). */
  failAll(error: LiveAiError): void;
  /** Messages waiting. */
  readonly size: number;
}

interface Item {
  message: AppMessage;
  at: number;
  resolve: () => void;
  reject: (e: unknown) => void;
}

/**
 * @param deps.publish hands one message to the room; a rejection rejects that message only.
 * @param deps.linkUp the room is connected and not reconnecting.
 * @param deps.agentReady the avatar participant is in the room (see `AvatarIdentity`).
 * @param deps.agentWaitMs how long a `chat-msg` waits for the avatar once the link is up, ms.
 */
export function createOutbox(deps: {
  publish: (message: AppMessage) => Promise<void>;
  linkUp: () => boolean;
  agentReady: () => boolean;
  agentWaitMs: number;
  now?: () => number;
}): Outbox {
  const now = deps.now ?? Date.now;
  const queue: Item[] = [];
  let busy = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const arm = (ms: number) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      kick();
    }, ms);
  };
  const blockedFor = (item: Item): number | null => {
    if (!deps.linkUp()) return Infinity;
    if (item.message.event === 'force-end' || deps.agentReady()) return null;
    const left = item.at + deps.agentWaitMs - now();
    return left > 0 ? left : null;
  };
  async function drain() {
    busy = true;
    try {
      while (queue.length > 0) {
        const head = queue[0]!;
        const wait = blockedFor(head);
        if (wait !== null) {
          if (wait !== Infinity) arm(wait);
          return;
        }
        queue.shift();
        await deps.publish(head.message).then(head.resolve, head.reject);
      }
    } finally {
      busy = false;
    }
  }
  function kick() {
    if (!busy) void drain();
  }
  return {
    push(message) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ message, at: now(), resolve, reject });
        kick();
      });
    },
    kick,
    failAll(error) {
      if (timer) clearTimeout(timer);
      timer = null;
      for (const item of queue.splice(0)) item.reject(error);
    },
    get size() {
      return queue.length;
    },
  };
}
