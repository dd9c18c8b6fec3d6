import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  DEFAULT_PROXY_HTTP_IDLE_MS,
  DEFAULT_PROXY_HTTP_MAX_BODY_BYTES,
  DEFAULT_PROXY_HTTP_MAX_SESSIONS,
} from '../../core/defaults.js';
import {
  CONVERSATION_HEADER,
  CONVERSATION_META_KEY,
  CONVERSATION_RULE,
  conversationOf,
} from './conversation-of.js';
import type { McpProxy, McpProxyConversation } from './mcp-proxy.js';
import { canElicit } from './proxy/can-elicit.js';

/** The key of the one input request the proxy makes: the user's yes or no to a call. */
const CONFIRM_KEY = 'toolwarden/confirm';
/** The conversation of a stateless client that names none: all of its key's calls, guarded together. */
const DEFAULT_CONVERSATION = 'stateless';

/** What the HTTP front needs of the stateless (2026-07-28) leg. */
export interface StatelessFront {
  /** Whether a request belongs to the 2026-07-28 leg (it carries the per-request `_meta` envelope claim). */
  claims(req: IncomingMessage, body: unknown): Promise<boolean>;
  /** Answers one 2026-07-28 request (its body already read), as the conversation it names. */
  handle(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    who: { readonly clientId: string | undefined; readonly conversation: string | undefined },
  ): Promise<void>;
  /** Open conversations. */
  readonly conversations: number;
  close(): Promise<void>;
}

interface Entry {
  readonly opened: Promise<McpProxyConversation>;
  lastSeen: number;
}

/**
 * Serves the stateless `2026-07-28` protocol with the v2 SDK's `createMcpHandler` (modern leg only:
 * 2025-era traffic stays on the v1 sessions): a `Server` per request, its `tools/list` and `tools/call`
 * answered by a conversation of the proxy (`proxy.converse`), the same policy as a session's. No
 * transport session: the conversation is named by the request (`x-toolwarden-session`, else
 * `toolwarden/session` in its `_meta`; under the client's id). A call that needs the user's yes is answered
 * `input_required` with one form elicitation; the client's retry carries the answer, which counts only for
 * the call it was asked about (the state is a hash, not a secret: the client is trusted to relay the
 * user's answer, as with an elicitation).
 */
export async function createStatelessFront(
  proxy: McpProxy,
  options: {
    readonly serverInfo?: { readonly name: string; readonly version: string };
    readonly onLog?: (line: string) => void;
  },
): Promise<StatelessFront> {
  const sdk = await import('@modelcontextprotocol/server');
  const log = options.onLog ?? (() => {});
  const entries = new Map<string, Entry>();
  const opened = (sessionId: string, clientId: string | undefined) => {
    const known = entries.get(sessionId);
    if (known !== undefined) {
      known.lastSeen = Date.now();
      return known.opened;
    }
    if (entries.size >= DEFAULT_PROXY_HTTP_MAX_SESSIONS)
      throw new sdk.ProtocolError(-32000, 'Too many conversations are open; try again later.');
    const opening = proxy.converse({ sessionId, ...(clientId === undefined ? {} : { clientId }) });
    entries.set(sessionId, { opened: opening, lastSeen: Date.now() });
    opening.then(
      () => log(`conversation ${sessionId} opened (stateless)`),
      () => entries.delete(sessionId),
    );
    return opening;
  };

  const factory = ({ authInfo, requestInfo }: { authInfo?: { clientId: string }; requestInfo?: Request }) => {
    const clientId = authInfo?.clientId === '' ? undefined : authInfo?.clientId;
    const header = requestInfo?.headers.get(CONVERSATION_HEADER) ?? undefined;
    /** The request's conversation: the header (checked by the front), else its `_meta`, else the default. */
    const sessionIdOf = (meta: Record<string, unknown> | undefined) => {
      const named = header ?? conversationOf(meta?.[CONVERSATION_META_KEY]);
      if (named === false) throw new sdk.ProtocolError(-32602, CONVERSATION_RULE);
      const scope = named ?? DEFAULT_CONVERSATION;
      return clientId === undefined ? scope : `${clientId}/${scope}`;
    };
    const server = new sdk.Server(options.serverInfo ?? { name: 'toolwarden-mcp-proxy', version: '0' }, {
      capabilities: { tools: {} },
    });
    server.setRequestHandler('tools/list', async (request) => {
      const conversation = await opened(sessionIdOf(request.params?._meta), clientId);
      return { tools: [...conversation.tools()] } as never;
    });
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const sessionId = sessionIdOf(request.params._meta);
      const conversation = await opened(sessionId, clientId);
      const { name } = request.params;
      const args = request.params.arguments;
      const state = stateOf(sessionId, name, args);
      const made = await conversation.call(name, args, {
        signal: ctx.mcpReq.signal,
        answer: () => {
          // Deprecated for 2025 sessions only: under createMcpHandler it reads this request's envelope.
          if (!canElicit(server.getClientCapabilities())) return 'unavailable';
          const view = sdk.inputResponse(ctx.mcpReq.inputResponses, CONFIRM_KEY);
          // An answer counts for the call it was asked about only (same conversation, tool and arguments).
          if (view.kind !== 'elicit' || ctx.mcpReq.requestState() !== state) return 'ask';
          return view.action;
        },
      });
      switch (made.kind) {
        case 'result':
          return made.result as never;
        case 'ask':
          return sdk.inputRequired({
            inputRequests: {
              [CONFIRM_KEY]: sdk.inputRequired.elicit({
                message: made.message,
                requestedSchema: { type: 'object', properties: {} },
              }),
            },
            requestState: state,
          });
        default: {
          const never: never = made;
          return never;
        }
      }
    });
    return server;
  };
  const handler = sdk.createMcpHandler(factory, {
    legacy: 'reject',
    maxRequestBodySize: DEFAULT_PROXY_HTTP_MAX_BODY_BYTES,
  });
  const sweep = setInterval(
    () => {
      const before = Date.now() - DEFAULT_PROXY_HTTP_IDLE_MS;
      for (const [sessionId, entry] of entries)
        if (entry.lastSeen < before) {
          entries.delete(sessionId);
          void entry.opened.then((conversation) => conversation.close()).catch(() => {});
        }
    },
    Math.min(60_000, DEFAULT_PROXY_HTTP_IDLE_MS),
  );
  sweep.unref();

  return {
    claims: async (req, body) => !(await sdk.isLegacyRequest(webRequest(req, body), body)),
    async handle(req, res, body, who) {
      const response = await handler.fetch(webRequest(req, body, who.conversation), {
        parsedBody: body,
        ...(who.clientId === undefined
          ? {}
          : { authInfo: { token: '', clientId: who.clientId, scopes: [] } }),
      });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      // JSON, or an SSE stream when a handler sends something before its result: passed on as it comes.
      if (response.body !== null) for await (const chunk of response.body) res.write(chunk);
      res.end();
    },
    get conversations() {
      return entries.size;
    },
    async close() {
      clearInterval(sweep);
      await handler.close();
      const open = [...entries.values()];
      entries.clear();
      for (const entry of open)
        await entry.opened.then((conversation) => conversation.close()).catch(() => {});
    },
  };
}

/**
 * The request as the v2 SDK reads it (a web `Request`): its headers, and the body already read (JSON).
 * The conversation header is set to the validated value only, so the factory reads no other spelling.
 */
function webRequest(req: IncomingMessage, body: unknown, conversation?: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined && name !== CONVERSATION_HEADER)
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  if (conversation !== undefined) headers.set(CONVERSATION_HEADER, conversation);
  headers.delete('content-length');
  return new Request(`http://localhost${req.url ?? '/'}`, {
    method: req.method ?? 'POST',
    headers,
    ...(req.method === 'POST' ? { body: JSON.stringify(body) } : {}),
  });
}

/** What binds a confirmation to its call: the conversation, the tool and its arguments, hashed. */
function stateOf(sessionId: string, name: string, args: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([sessionId, name, args ?? {}]))
    .digest('base64url');
}
