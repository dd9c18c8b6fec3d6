// A remote MCP server for the proxy's tests: the v1 SDK's `Server` over its `StreamableHTTPServerTransport`
// (stateful: one transport per MCP session), on a local port; `announce_prompts` sends
// `notifications/prompts/list_changed`. `stop` drops every connection, as a crash
// would; `startHttpUpstream(port)` again brings it back on the same port.
import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

const object = { type: 'object' as const, properties: { text: { type: 'string' } } };

export const HTTP_UPSTREAM_TOOLS = [
  { name: 'create_issue', description: 'Files an issue (a write).', inputSchema: object },
  {
    name: 'echo',
    description: 'Says the text back.',
    inputSchema: object,
    annotations: { readOnlyHint: true },
  },
  { name: 'announce_prompts', description: 'Says its prompt list changed.', inputSchema: object },
];

export interface HttpUpstream {
  readonly url: string;
  readonly port: number;
  /** Every `Authorization` header the server was sent, in order. */
  readonly authorizations: (string | undefined)[];
  /** Each MCP session's `Authorization` headers (every one it was sent, once each), by session id. */
  readonly sessions: Map<string, Set<string | undefined>>;
  /** The text of every issue `create_issue` filed, in order (a write that ran). */
  readonly created: string[];
  stop(): Promise<void>;
}

export async function startHttpUpstream(port = 0): Promise<HttpUpstream> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const authorizations: (string | undefined)[] = [];
  const created: string[] = [];
  const sessions = new Map<string, Set<string | undefined>>();
  let issues = 0;
  const http: HttpServer = createServer(async (req, res) => {
    authorizations.push(req.headers.authorization);
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string')
      sessions.set(id, (sessions.get(id) ?? new Set()).add(req.headers.authorization));
    const known = typeof id === 'string' ? transports.get(id) : undefined;
    if (known !== undefined) return known.handleRequest(req, res);
    if (typeof id === 'string') {
      res.writeHead(404).end();
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => void transports.set(sessionId, transport),
    });
    const server = new Server(
      { name: 'http-test-server', version: '0' },
      { capabilities: { tools: {}, prompts: { listChanged: true } } },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: HTTP_UPSTREAM_TOOLS }));
    server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [] }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      if (request.params.name === 'announce_prompts') await server.sendPromptListChanged();
      const text = String((request.params.arguments as { text?: unknown } | undefined)?.text ?? '');
      if (request.params.name === 'create_issue') created.push(text);
      if (request.params.name === 'create_issue')
        return { content: [{ type: 'text', text: `issue #${++issues}: ${text}` }] };
      return { content: [{ type: 'text', text }] };
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  const bound = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    port: bound,
    authorizations,
    sessions,
    created,
    async stop() {
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      for (const transport of transports.values()) await transport.close().catch(() => {});
      await closed;
    },
  };
}
