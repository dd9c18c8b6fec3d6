/** The one hook both SDK lines share: the handler of notifications no other handler took. */
interface FallbackHolder {
  fallbackNotificationHandler?: ((notification: { method: string }) => Promise<void>) | undefined;
}

/**
 * Listens for one notification method through the client's `fallbackNotificationHandler` (public in the v1
 * and v2 SDK), chained: a handler set before keeps getting every notification. A handler registered for
 * the same method with `setNotificationHandler` (or the client's own `listChanged` option) takes the
 * notification first; then call the returned handle's `refresh()` from it. Stopping restores the previous
 * handler when nothing replaced ours since.
 */
export function listenForNotification(client: object, method: string, listener: () => void): () => void {
  const holder = client as FallbackHolder;
  const previous = holder.fallbackNotificationHandler;
  const ours = async (notification: { method: string }): Promise<void> => {
    if (notification?.method === method) listener();
    if (previous !== undefined) await previous.call(client, notification);
  };
  holder.fallbackNotificationHandler = ours;
  return () => {
    if (holder.fallbackNotificationHandler === ours) holder.fallbackNotificationHandler = previous;
  };
}
