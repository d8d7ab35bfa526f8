/**
 * Tells the browser's other tabs of this app that the session changed: `signed-out`
 * (they sign out at once) or `changed` (signed in, new name, new password: they ask the
 * server). BroadcastChannel where there is one, else a `storage` event.
 */
export type SessionEvent = 'signed-out' | 'changed';

const NAME = 'learnlingo-session';

const isSessionEvent = (value: unknown): value is SessionEvent => value === 'signed-out' || value === 'changed';

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

let channel: BroadcastChannel | null | undefined;
function sharedChannel(): BroadcastChannel | null {
  if (channel === undefined) {
    channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(NAME) : null;
    // Node (the component tests) would otherwise wait for an open channel before exiting
    (channel as { unref?: () => void } | null)?.unref?.();
  }
  return channel;
}

/** Tells the other tabs (never this one). */
export function announceSession(event: SessionEvent): void {
  const shared = sharedChannel();
  if (shared) {
    shared.postMessage(event);
    return;
  }
  try {
    // a new value each time, so that the same event twice still fires `storage`
    storage()?.setItem(NAME, `${event} ${Date.now()} ${Math.random()}`);
  } catch {
    // storage full or disabled: the other tabs still look on focus and on their timer
  }
}

/** Calls `onEvent` for each announcement of another tab; returns the unsubscribe. */
export function listenToSession(onEvent: (event: SessionEvent) => void): () => void {
  const shared = sharedChannel();
  if (shared) {
    // the instance this tab announces on: a channel never hears its own messages
    const onMessage = (message: MessageEvent<unknown>) => {
      if (isSessionEvent(message.data)) onEvent(message.data);
    };
    shared.addEventListener('message', onMessage);
    return () => shared.removeEventListener('message', onMessage);
  }
  const onStorage = (event: StorageEvent) => {
    const value = event.key === NAME ? event.newValue?.split(' ')[0] : undefined;
    if (isSessionEvent(value)) onEvent(value);
  };
  globalThis.addEventListener('storage', onStorage);
  return () => globalThis.removeEventListener('storage', onStorage);
}
