// Connects the official SDK clients (v1 and v2) to the reference MCP servers, spawned over stdio from
// node_modules (no network), with an explicit environment.
import { createRequire } from 'node:module';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { McpClientPort } from '../mcp-client-port.js';
import { toMcpClientPort } from '../to-mcp-client-port.js';

const require = createRequire(import.meta.url);

export type ServerPackage =
  | '@modelcontextprotocol/server-everything'
  | '@modelcontextprotocol/server-filesystem'
  | '@modelcontextprotocol/server-postgres'
  | '@modelcontextprotocol/server-memory'
  | '@modelcontextprotocol/server-sequential-thinking';

/** The server's entry script: the package's `dist/index.js`. */
export function serverEntry(pkg: ServerPackage): string {
  return require.resolve(`${pkg}/dist/index.js`);
}

/** Only what a server needs: the spec's stdio transport passes a short default list plus this. */
const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/tmp' };

export const SPAWN_TIMEOUT_MS = 30_000;

export async function connectV1(pkg: ServerPackage, args: readonly string[]): Promise<ClientV1> {
  const client = new ClientV1({ name: 'toolwarden-test', version: '0.0.0' });
  await client.connect(
    new StdioV1({ command: process.execPath, args: [serverEntry(pkg), ...args], env: ENV, stderr: 'ignore' }),
  );
  return client;
}

export async function connectV2(pkg: ServerPackage, args: readonly string[]): Promise<ClientV2> {
  const client = new ClientV2({ name: 'toolwarden-test', version: '0.0.0' });
  await client.connect(
    new StdioV2({ command: process.execPath, args: [serverEntry(pkg), ...args], env: ENV, stderr: 'ignore' }),
  );
  return client;
}

/** The port of a client, counting the `tools/call` requests that reach the server. */
export function countingPort(port: McpClientPort): McpClientPort & { readonly calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    listTools: (cursor, options) => port.listTools(cursor, options),
    callTool: (name, args, options) => {
      calls.push(name);
      return port.callTool(name, args, options);
    },
    onToolsChanged: (listener) => port.onToolsChanged(listener),
  };
}

/** The port of a v1 or v2 client, as `fromMcpClient` makes it. */
export function portOf(client: unknown): McpClientPort {
  const port = toMcpClientPort(client);
  if (port === undefined) throw new Error('not an MCP client');
  return port;
}
