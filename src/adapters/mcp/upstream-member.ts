import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEFAULT_MCP_MAX_TOOLS } from '../../core/defaults.js';
import {
  connectUpstream,
  isConnectionLoss,
  UpstreamSetupError,
  type UpstreamTarget,
} from './connect-upstream.js';
import { listMcpTools } from './list-mcp-tools.js';
import type { McpClientPort, McpRequestOptions } from './mcp-client-port.js';
import { sdkV1Port, sdkV1Request } from './sdk-v1-port.js';

/** `createUpstreamMember`'s options. */
export interface UpstreamMemberOptions {
  /** How the operator's log names it: its namespace, or its command or URL. */
  readonly label: string;
  readonly target: UpstreamTarget;
  /** The proxy's environment, read for the variables the target names. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Connect again after it is lost, with a delay growing from `initialMs` to `maxMs`; false: lost for good. */
  readonly reconnect: { readonly initialMs: number; readonly maxMs: number } | false;
  readonly list: { readonly timeoutMs: number; readonly maxPages: number };
  readonly log: (line: string) => void;
  /** Say nothing of the first connection (the proxy of one server says only what goes wrong). */
  readonly quietStart?: boolean;
  /** Its tools changed: it came up, went down, or said its list changed. */
  readonly onChange: () => void;
  /** Connected again after it was lost (not the first connection): what it forgot can be said again. */
  readonly onReconnected?: () => void;
  /** A notification passed on to the clients (resources and prompts: `PASSED_ON`), as the server sent it. */
  readonly onNotification?: (notification: { readonly method: string; readonly params: unknown }) => void;
}

/** The server notifications the proxy passes on to its clients (tools' `list_changed` is its own). */
export const PASSED_ON: ReadonlySet<string> = new Set([
  'notifications/resources/updated',
  'notifications/resources/list_changed',
  'notifications/prompts/list_changed',
]);

/** One upstream server: connected or not, its tools while connected, and reconnection when it is lost. */
export interface UpstreamMember {
  readonly label: string;
  /** Its tool definitions, unread, while it is connected; empty while it is not. */
  readonly tools: readonly unknown[];
  /** Its port while it is connected. A call through a port of a lost connection fails as `NOT_CONNECTED`. */
  readonly port: McpClientPort | undefined;
  /**
   * Any other request (`prompts/get`, `resources/read`, …) while it is connected, its result as sent;
   * undefined while it is not. Fails as `NOT_CONNECTED` as the port does.
   */
  readonly request: ((method: string, params: object, signal: AbortSignal) => Promise<unknown>) | undefined;
  /** What it said it serves (`prompts`, `resources`), while it is connected. */
  readonly capabilities: { readonly prompts?: unknown; readonly resources?: unknown } | undefined;
  /** Connects the first time; rejects with why when that fails (a reconnection is scheduled all the same, when allowed). */
  start(): Promise<void>;
  /** Resolves when it is lost for good: down with no reconnection to come, or closed. */
  readonly ended: Promise<void>;
  close(): Promise<void>;
}

/** The error a call gets when its server is not connected: `NOT_CONNECTED`, which the chain classifies as transient. */
export function notConnected(label: string, cause?: unknown): Error {
  return Object.assign(new Error(`the server "${label}" is not connected`, { cause }), {
    code: 'NOT_CONNECTED',
  });
}

/**
 * One upstream, kept connected: its tools listed (every page) on each connection and on each
 * `notifications/tools/list_changed`; a lost connection (the process exited, the HTTP server refuses or
 * forgot the session, the SSE stream was given up on, a call found it gone) withdraws its tools at once
 * and, with `reconnect`, tries again later.
 */
export function createUpstreamMember(options: UpstreamMemberOptions): UpstreamMember {
  const { label, log } = options;
  let client: Client | undefined;
  let port: McpClientPort | undefined;
  let request: UpstreamMember['request'];
  let tools: readonly unknown[] = [];
  let generation = 0;
  let connections = 0;
  let closing = false;
  let delay = options.reconnect === false ? 0 : options.reconnect.initialMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let markEnded = () => {};
  const ended = new Promise<void>((resolve) => {
    markEnded = resolve;
  });
  const requestOptions = (): McpRequestOptions => ({
    signal: new AbortController().signal,
    timeout: options.list.timeoutMs,
  });
  // Each server's own share: one that lists thousands cannot crowd the others' tools out.
  const list = async (of: McpClientPort) => {
    const listed = await listMcpTools(of, { ...requestOptions(), maxPages: options.list.maxPages });
    if (listed.length <= DEFAULT_MCP_MAX_TOOLS) return listed;
    log(`server ${label}: lists ${listed.length} tools; the first ${DEFAULT_MCP_MAX_TOOLS} are kept`);
    return listed.slice(0, DEFAULT_MCP_MAX_TOOLS);
  };

  const lost = (reason: string) => {
    const wasUp = client !== undefined;
    client = undefined;
    port = undefined;
    request = undefined;
    tools = [];
    generation++;
    if (wasUp) {
      log(`server ${label}: ${reason}; its tools are withdrawn`);
      options.onChange();
    }
    schedule();
  };

  const schedule = () => {
    if (closing || options.reconnect === false) {
      markEnded();
      return;
    }
    if (timer !== undefined) return;
    const wait = delay;
    delay = Math.min(delay * 2, options.reconnect.maxMs);
    timer = setTimeout(() => {
      timer = undefined;
      connectOnce().catch((error: unknown) => {
        log(`server ${label}: still not reachable (${messageOf(error)}); trying again in ${delay} ms`);
        schedule();
      });
    }, wait);
    timer.unref?.();
  };

  const connectOnce = async () => {
    const connected = await connectUpstream(options.target, options.env);
    if (closing) {
      await connected.close().catch(() => {});
      return;
    }
    const at = ++generation;
    const raw = sdkV1Port(connected);
    const current = () => at === generation && client === connected;
    connected.onclose = () => {
      if (current()) lost('the connection closed');
    };
    connected.onerror = (error) => {
      if (current() && isConnectionLoss(error)) void connected.close().catch(() => {});
    };
    let listed: unknown[];
    try {
      listed = await list(raw);
    } catch (error) {
      await connected.close().catch(() => {});
      throw error;
    }
    if (closing || at !== generation) {
      await connected.close().catch(() => {});
      return;
    }
    client = connected;
    tools = listed;
    const drop = () => void connected.close().catch(() => {});
    port = guardedPort(raw, label, current, drop);
    const send = sdkV1Request(connected);
    request = (method, params, signal) =>
      guarded(label, current, drop, () => send(method, params, { signal, timeout: options.list.timeoutMs }));
    const previous = connected.fallbackNotificationHandler;
    connected.fallbackNotificationHandler = async (notification) => {
      if (current() && PASSED_ON.has(notification.method))
        options.onNotification?.({ method: notification.method, params: notification.params });
      await previous?.(notification);
    };
    raw.onToolsChanged(() => {
      if (!current()) return;
      list(raw).then(
        (next) => {
          if (!current()) return;
          tools = next;
          options.onChange();
        },
        (error: unknown) =>
          log(`server ${label}: its tool list changed but could not be read (${messageOf(error)})`),
      );
    });
    if (options.reconnect !== false) delay = options.reconnect.initialMs;
    if (!(options.quietStart === true && connections === 0))
      log(`server ${label}: connected, ${tools.length} tool(s)`);
    connections++;
    options.onChange();
    if (connections > 1) options.onReconnected?.();
  };

  return {
    label,
    get tools() {
      return tools;
    },
    get port() {
      return port;
    },
    get request() {
      return request;
    },
    get capabilities() {
      return client?.getServerCapabilities();
    },
    async start() {
      try {
        await connectOnce();
      } catch (error) {
        if (error instanceof UpstreamSetupError) markEnded();
        else schedule();
        throw error;
      }
    },
    ended,
    async close() {
      closing = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      const open = client;
      client = undefined;
      port = undefined;
      request = undefined;
      tools = [];
      generation++;
      await open?.close().catch(() => {});
      markEnded();
    },
  };
}

/**
 * The port of one connection: a call after the connection was lost fails as `NOT_CONNECTED` without trying;
 * a call that finds the server unreachable closes the connection (its tools go, a reconnection is planned)
 * and fails as `NOT_CONNECTED` too, so the chain classifies it as transient.
 */
function guardedPort(
  raw: McpClientPort,
  label: string,
  current: () => boolean,
  drop: () => void,
): McpClientPort {
  const guard = (run: () => Promise<unknown>) => guarded(label, current, drop, run);
  return {
    listTools: (cursor, options) => guard(() => raw.listTools(cursor, options)),
    callTool: (name, args, options) => guard(() => raw.callTool(name, args, options)),
    onToolsChanged: (listener) => raw.onToolsChanged(listener),
  };
}

/** Runs a request of a connection that may be lost: `NOT_CONNECTED` when it is, or when the request finds it so. */
async function guarded(
  label: string,
  current: () => boolean,
  drop: () => void,
  run: () => Promise<unknown>,
): Promise<unknown> {
  if (!current()) throw notConnected(label);
  try {
    return await run();
  } catch (error) {
    if (!isConnectionLoss(error)) throw error;
    drop();
    throw notConnected(label, error);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 300) : String(error).slice(0, 300);
}
