// A hand-written MCP server on one end of the SDK's in-memory transport: it answers each method with
// whatever the test says (hostile results included), or never (`hang`), and sends notifications on demand.
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export type RawAnswer =
  | { readonly result: unknown }
  | { readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } }
  | 'hang';

export type RawHandler = (params: Record<string, unknown>) => RawAnswer;

export interface RawServer {
  readonly client: Client;
  /** Every request the server got, by method. */
  readonly requests: { method: string; params: Record<string, unknown> }[];
  notify(method: string): Promise<void>;
  close(): Promise<void>;
}

const INITIALIZE = {
  protocolVersion: '2025-06-18',
  capabilities: { tools: { listChanged: true } },
  serverInfo: { name: 'raw-test-server', version: '0.0.0' },
};

/** A raw server and a connected client of the v1 SDK (default) or the v2 one. */
export async function rawServer(
  handlers: Readonly<Record<string, RawHandler>>,
  line: 'v1' | 'v2' = 'v1',
): Promise<RawServer> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const requests: RawServer['requests'] = [];
  serverSide.onmessage = (message: JSONRPCMessage) => {
    if (!('method' in message) || !('id' in message)) return;
    const params = (message.params ?? {}) as Record<string, unknown>;
    requests.push({ method: message.method, params });
    const handler =
      message.method === 'initialize' ? () => ({ result: INITIALIZE }) : handlers[message.method];
    const answer: RawAnswer = handler?.(params) ?? {
      error: { code: -32601, message: `Method not found: ${message.method}` },
    };
    if (answer === 'hang') return;
    void serverSide.send({ jsonrpc: '2.0', id: message.id, ...answer } as JSONRPCMessage);
  };
  await serverSide.start();
  const client =
    line === 'v1'
      ? new Client({ name: 'toolwarden-test', version: '0.0.0' })
      : (new ClientV2({ name: 'toolwarden-test', version: '0.0.0' }) as unknown as Client);
  await client.connect(clientSide);
  return {
    client,
    requests,
    notify: (method) => serverSide.send({ jsonrpc: '2.0', method } as JSONRPCMessage),
    close: () => client.close(),
  };
}

/** A `tools/list` handler answering these tools in one page. */
export function listing(tools: readonly unknown[]): RawHandler {
  return () => ({ result: { tools } });
}

export const SUM_TOOL = {
  name: 'sum',
  description: 'Adds two numbers.',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  outputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
};
