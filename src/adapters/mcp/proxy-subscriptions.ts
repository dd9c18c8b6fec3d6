import type { UpstreamPassthrough } from './upstream-passthrough.js';

/** Which client sessions subscribed to which resource, with one upstream subscription per URI. */
export interface ProxySubscriptions<S> {
  /** The first session to subscribe to a URI subscribes upstream; a failure there is the session's answer. */
  subscribe(session: S, uri: string, signal: AbortSignal): Promise<void>;
  /** The last session to leave a URI unsubscribes upstream. */
  unsubscribe(session: S, uri: string, signal: AbortSignal): Promise<void>;
  /** A closed session leaves every URI it subscribed to. */
  drop(session: S): void;
  /** The sessions a `notifications/resources/updated` of `uri` goes to. */
  subscribersOf(uri: string): readonly S[];
  /** A server came back: every URI some session subscribed to is subscribed again (one that fails is left). */
  resubscribe(): void;
}

/**
 * `resources/subscribe` across the proxy's client sessions: each session's subscriptions are its own (a
 * session is told only of URIs it subscribed to), the server sees one subscription per URI (the proxy's
 * connection to it is shared).
 */
export function createProxySubscriptions<S>(passthrough: UpstreamPassthrough): ProxySubscriptions<S> {
  const byUri = new Map<string, Set<S>>();
  const leave = (session: S, uri: string, signal: AbortSignal): Promise<void> => {
    const sessions = byUri.get(uri);
    if (sessions === undefined || !sessions.delete(session) || sessions.size > 0) return Promise.resolve();
    byUri.delete(uri);
    return passthrough.unsubscribe({ uri }, signal).then(() => {});
  };
  return {
    async subscribe(session, uri, signal) {
      const sessions = byUri.get(uri);
      if (sessions !== undefined) {
        sessions.add(session);
        return;
      }
      await passthrough.subscribe({ uri }, signal);
      // Another session may have subscribed while this one waited: one set all the same.
      const now = byUri.get(uri) ?? new Set<S>();
      now.add(session);
      byUri.set(uri, now);
    },
    unsubscribe: leave,
    drop(session) {
      const signal = new AbortController().signal;
      // Said to the server after the session is gone: a failure has nobody to tell.
      for (const uri of [...byUri.keys()]) void leave(session, uri, signal).catch(() => {});
    },
    subscribersOf: (uri) => [...(byUri.get(uri) ?? [])],
    resubscribe() {
      const signal = new AbortController().signal;
      // Sent to the server that listed the URI; a server that has it already takes it again.
      for (const uri of byUri.keys()) void passthrough.subscribe({ uri }, signal).catch(() => {});
    },
  };
}
