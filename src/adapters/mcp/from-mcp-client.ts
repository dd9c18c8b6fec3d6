import {
  DEFAULT_MCP_MAX_LIST_PAGES,
  DEFAULT_MCP_MAX_TOOLS,
  DEFAULT_MCP_TRUSTED,
} from '../../core/defaults.js';
import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import { checkOriginalName, createToolNameMap, type ToolNameMap } from '../../formats/tool-name-map.js';
import { defaultSchemaCompiler, type SchemaCompiler } from '../../schema/schema-compiler.js';
import type { AnyTool } from '../../tools/define-tool.js';
import { type BuildContext, buildMcpTool } from './build-mcp-tool.js';
import type { FromMcpClientOptions } from './from-mcp-client-options.js';
import { listMcpTools } from './list-mcp-tools.js';
import type { McpClientPort } from './mcp-client-port.js';
import type { McpToolInfo } from './mcp-tool-info.js';
import { toMcpClientPort } from './to-mcp-client-port.js';

export type { FromMcpClientOptions } from './from-mcp-client-options.js';

/** A server tool that could not be a tool: left out. */
type SkippedMcpTool = McpTools['skipped'][number];

/** The guarded tools of one client, refreshed when the server says its list changed. */
export interface McpTools {
  /** The current tools (a loop started before a refresh keeps the tools it was given). */
  readonly tools: readonly AnyTool[];
  /** The server tools that could not be tools (a hostile name, a schema that does not compile): left out. */
  readonly skipped: readonly {
    /** Its position in the server's list. */
    readonly index: number;
    readonly name: string | undefined;
    readonly problem: string;
  }[];
  readonly nameMap: ToolNameMap;
  /** What toolwarden made of a tool, by the name the model calls it. */
  info(name: string): McpToolInfo | undefined;
  /** Reads the list again (all pages) and rebuilds the tools. */
  refresh(options?: { readonly signal?: AbortSignal }): Promise<readonly AnyTool[]>;
  /** Stops listening for list changes. The client stays open: closing it is the caller's. */
  close(): void;
}

/**
 * The tools of a connected MCP client (a v1 `Client`, a v2 `Client`, or an `McpClientPort`) as
 * toolwarden tools whose calls go through the chain: arguments checked against `inputSchema` before the
 * server is called, results against `outputSchema` (on success only), failures classified and redacted
 * (`McpCallError['kind']`), annotations believed only when `trusted`.
 */
export async function fromMcpClient(
  /**
   * A connected client of either SDK line, or a port of your own (another SDK, a test double). An SDK v1
   * `Client` is known by its `request` (typed loosely so that the SDK's generic method fits), a v2 `Client`
   * by `listTools`, `callTool` and `getProtocolEra`.
   */
  client:
    | { readonly request: (...args: never[]) => Promise<unknown> }
    | {
        readonly listTools: (...args: never[]) => Promise<unknown>;
        readonly callTool: (...args: never[]) => Promise<unknown>;
        readonly getProtocolEra: (...args: never[]) => unknown;
      }
    | McpClientPort,
  options: FromMcpClientOptions = {},
): Promise<McpTools> {
  const port = toMcpClientPort(client);
  if (port === undefined) {
    throw new InvalidOptionsError({
      option: 'client',
      message:
        'fromMcpClient expects a connected MCP Client (@modelcontextprotocol/sdk v1 or @modelcontextprotocol/client v2) or an McpClientPort.',
    });
  }
  return mcpToolsOf(port, options, { asSent: false });
}

/**
 * `fromMcpClient` over a port, with what only the proxy asks for: `asSent`, each successful value keeps
 * the server's own `isError` as it was sent (present or not), since the proxy hands the client the
 * server's result unchanged.
 */
export async function mcpToolsOf(
  port: McpClientPort,
  options: FromMcpClientOptions,
  internal: { readonly asSent: boolean },
): Promise<McpTools> {
  const compiler = options.schemaCompiler ?? defaultSchemaCompiler();
  const read = (signal: AbortSignal | undefined) =>
    readTools(port, options, compiler, signal, internal.asSent);
  let current = await read(options.signal);
  let running: Promise<readonly AnyTool[]> | undefined;
  let again = false;
  const refresh = async (signal?: AbortSignal): Promise<readonly AnyTool[]> => {
    current = await read(signal);
    return current.tools;
  };
  /** A notification during a refresh asks for one more after it, never for two at once. */
  const onChanged = (): void => {
    if (running !== undefined) {
      again = true;
      return;
    }
    running = refresh().then(
      (tools) => {
        options.onToolsChanged?.({ tools });
        return tools;
      },
      (error: unknown) => {
        options.onToolsChanged?.({ error });
        return current.tools;
      },
    );
    void running.finally(() => {
      running = undefined;
      if (again) {
        again = false;
        onChanged();
      }
    });
  };
  const stop = options.listen === false ? () => {} : port.onToolsChanged(onChanged);
  return {
    get tools() {
      return current.tools;
    },
    get skipped() {
      return current.skipped;
    },
    get nameMap() {
      return current.nameMap;
    },
    info: (name) => current.infos.get(name),
    refresh: (refreshOptions) => refresh(refreshOptions?.signal),
    close: stop,
  };
}

interface ReadTools {
  readonly tools: readonly AnyTool[];
  /** The server tools that could not be tools (a hostile name, a schema that does not compile): left out. */
  readonly skipped: readonly {
    /** Its position in the server's list. */
    readonly index: number;
    readonly name: string | undefined;
    readonly problem: string;
  }[];
  readonly nameMap: ToolNameMap;
  readonly infos: ReadonlyMap<string, McpToolInfo>;
}

async function readTools(
  port: McpClientPort,
  options: FromMcpClientOptions,
  compiler: SchemaCompiler,
  signal: AbortSignal | undefined,
  asSent: boolean,
): Promise<ReadTools> {
  const definitions = await listMcpTools(port, {
    signal: signal ?? new AbortController().signal,
    timeout: options.requestTimeoutMs,
    maxPages: options.maxPages ?? DEFAULT_MCP_MAX_LIST_PAGES,
  });
  const maxTools = options.maxTools ?? DEFAULT_MCP_MAX_TOOLS;
  const skipped: SkippedMcpTool[] = [];
  const names = definitions.slice(0, maxTools).map((definition) => nameOf(definition));
  const nameMap = createToolNameMap(names.filter((name): name is string => name !== undefined));
  const context: BuildContext = {
    port,
    nameMap,
    trusted: options.trusted ?? DEFAULT_MCP_TRUSTED,
    compiler,
    requestTimeoutMs: options.requestTimeoutMs,
    showErrorMessages: options.showErrorMessages,
    formatResult: options.formatResult,
    settings: options.tool,
    asSent,
  };
  const tools: AnyTool[] = [];
  const infos = new Map<string, McpToolInfo>();
  for (const [index, definition] of definitions.entries()) {
    const name = names[index];
    if (index >= maxTools) {
      skipped.push({ index, name: nameOf(definition), problem: `more than ${maxTools} tools (maxTools)` });
      continue;
    }
    if (name !== undefined && names.indexOf(name) !== index) {
      skipped.push({ index, name, problem: 'another tool of the list has this name' });
      continue;
    }
    try {
      const built = buildMcpTool(definition, context);
      tools.push(built.tool);
      infos.set(built.tool.name, built.info);
    } catch (error) {
      skipped.push({ index, name, problem: error instanceof Error ? error.message : String(error) });
    }
  }
  return { tools: Object.freeze(tools), skipped: Object.freeze(skipped), nameMap, infos };
}

/** A definition's name when it is one a name map takes (a hostile one is left for the reader to refuse). */
function nameOf(definition: unknown): string | undefined {
  if (typeof definition !== 'object' || definition === null) return undefined;
  const name = (definition as { name?: unknown }).name;
  return checkOriginalName(name) === undefined ? (name as string) : undefined;
}
