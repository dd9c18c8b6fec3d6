import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { DEFAULT_PROXY_CONFIRM_TIMEOUT_MS } from '../../core/defaults.js';
import { answerToolCall } from './answer-tool-call.js';
import type { McpProxySession } from './mcp-proxy.js';
import type { ConfirmationAnswer } from './proxy/call-decision.js';
import { canElicit } from './proxy/can-elicit.js';
import type { ProxiedTool } from './proxy/mcp-shapes.js';
import type { ProxyCallContext } from './proxy-call.js';
import { PassthroughError, type UpstreamPassthrough } from './upstream-passthrough.js';

type SdkTypes = typeof import('@modelcontextprotocol/sdk/types.js');

/** A resource URI passed on in a notification: as long as any real one. */
const MAX_URI_CHARS = 8_192;

/** What `serveProxySession` serves one session with. */
export interface ServeSessionOptions {
  readonly server: Server;
  readonly transport: Transport;
  readonly types: SdkTypes;
  readonly context: Omit<ProxyCallContext, 'confirm'>;
  readonly tools: () => readonly ProxiedTool[];
  readonly onClose: () => void;
  /** The upstreams' prompts and resources, passed through (the server declares both capabilities). */
  readonly passthrough?: UpstreamPassthrough;
  /** The client said it is initialized and declared no form elicitation: no confirmation can be asked. */
  readonly onNoElicitation?: () => void;
  /** This session's `resources/subscribe` and `resources/unsubscribe` (see `createProxySubscriptions`). */
  readonly subscriptions?: {
    subscribe(uri: string, signal: AbortSignal): Promise<void>;
    unsubscribe(uri: string, signal: AbortSignal): Promise<void>;
  };
}

/** A session as the proxy holds it: it can also be sent a server's notification (resources, prompts). */
export interface ServedSession extends McpProxySession {
  notify(notification: { readonly method: string; readonly params: unknown }): void;
}

/**
 * Serves `tools/list` (the upstream's tools after `allow` and `deny`, each the upstream's own object,
 * unchanged) and `tools/call` (through `proxyCall`) on one transport. A handler never throws: the SDK
 * would send a throw as JSON-RPC -32603, which clients show as a crash.
 */
export async function serveProxySession(options: ServeSessionOptions): Promise<ServedSession> {
  const { server, types, context } = options;
  const confirm = (message: string, signal: AbortSignal) => askUser(server, message, signal);
  const full: ProxyCallContext = { ...context, confirm };
  server.setRequestHandler(types.ListToolsRequestSchema, () => ({ tools: [...options.tools()] }) as never);
  server.setRequestHandler(
    types.CallToolRequestSchema,
    async (request, extra) =>
      (await answerToolCall(
        full,
        types,
        request.params.name,
        request.params.arguments,
        extra.signal,
      )) as never,
  );
  if (options.passthrough !== undefined)
    servePassthrough(server, types, options.passthrough, options.subscriptions);
  server.oninitialized = () => {
    if (!canElicit(server.getClientCapabilities())) options.onNoElicitation?.();
  };
  let closed = false;
  server.onclose = () => {
    closed = true;
    options.onClose();
  };
  await server.connect(options.transport);
  return {
    sessionId: context.sessionId,
    toolsChanged(tools) {
      context.policy.setTools(tools);
      if (!closed) void server.sendToolListChanged().catch(() => {});
    },
    notify({ method, params }) {
      if (closed) return;
      const uri = (params as { uri?: unknown } | null | undefined)?.uri;
      // Only what the notification means is passed on: the URI of an update, nothing for a list change.
      const notification =
        method === 'notifications/resources/updated'
          ? typeof uri === 'string' && uri.length <= MAX_URI_CHARS
            ? { method, params: { uri } }
            : undefined
          : { method };
      if (notification !== undefined) void server.notification(notification as never).catch(() => {});
    },
    async close() {
      if (closed) return;
      await server.close().catch(() => {});
    },
  };
}

/**
 * Prompts and resources, passed through: the upstream's answer if it is a valid result of its kind, else a
 * JSON-RPC error (these are not tool calls, so they have no `isError` result to answer with).
 */
function servePassthrough(
  server: Server,
  types: SdkTypes,
  passthrough: UpstreamPassthrough,
  subscriptions: ServeSessionOptions['subscriptions'],
): void {
  const answer = async (
    run: () => Promise<unknown>,
    schema: { safeParse(value: unknown): { success: boolean } },
  ) => {
    let result: unknown;
    try {
      result = await run();
    } catch (error) {
      if (error instanceof PassthroughError) throw new types.McpError(error.code, error.message);
      const code = (error as { code?: unknown } | null)?.code;
      // The server's own JSON-RPC error passes as it is; a lost server is said as such, nothing more.
      if (typeof code === 'number' && error instanceof Error)
        throw new types.McpError(code, error.message.slice(0, 500));
      throw new types.McpError(types.ErrorCode.InternalError, 'The server of this item is not reachable.');
    }
    if (!schema.safeParse(result).success)
      throw new types.McpError(types.ErrorCode.InternalError, "The server's answer is not a valid result.");
    return result as never;
  };
  server.setRequestHandler(types.ListPromptsRequestSchema, (_, extra) =>
    answer(() => passthrough.listPrompts(extra.signal), types.ListPromptsResultSchema),
  );
  server.setRequestHandler(types.GetPromptRequestSchema, (request, extra) =>
    answer(() => passthrough.getPrompt(request.params, extra.signal), types.GetPromptResultSchema),
  );
  server.setRequestHandler(types.ListResourcesRequestSchema, (_, extra) =>
    answer(() => passthrough.listResources(extra.signal), types.ListResourcesResultSchema),
  );
  server.setRequestHandler(types.ListResourceTemplatesRequestSchema, (_, extra) =>
    answer(() => passthrough.listResourceTemplates(extra.signal), types.ListResourceTemplatesResultSchema),
  );
  server.setRequestHandler(types.ReadResourceRequestSchema, (request, extra) =>
    answer(() => passthrough.readResource(request.params, extra.signal), types.ReadResourceResultSchema),
  );
  if (subscriptions === undefined) return;
  const done = async (run: Promise<void>) => {
    await run;
    return {};
  };
  server.setRequestHandler(types.SubscribeRequestSchema, (request, extra) =>
    answer(() => done(subscriptions.subscribe(request.params.uri, extra.signal)), types.EmptyResultSchema),
  );
  server.setRequestHandler(types.UnsubscribeRequestSchema, (request, extra) =>
    answer(() => done(subscriptions.unsubscribe(request.params.uri, extra.signal)), types.EmptyResultSchema),
  );
}

/**
 * Asks the user through MCP elicitation (form mode, no fields: a yes or a no). A client that did not
 * declare form elicitation cannot be asked (`unavailable`); a request that fails or times out is a cancel.
 */
async function askUser(server: Server, message: string, signal: AbortSignal): Promise<ConfirmationAnswer> {
  if (!canElicit(server.getClientCapabilities())) return 'unavailable';
  try {
    const answer = await server.elicitInput(
      { mode: 'form', message, requestedSchema: { type: 'object', properties: {} } },
      { signal, timeout: DEFAULT_PROXY_CONFIRM_TIMEOUT_MS },
    );
    return answer.action === 'accept' ? 'accept' : answer.action === 'decline' ? 'decline' : 'cancel';
  } catch {
    return 'cancel';
  }
}
