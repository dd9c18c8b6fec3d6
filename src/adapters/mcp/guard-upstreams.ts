import type { ToolRuntime } from '../../chain/runtime.js';
import {
  DEFAULT_MCP_MAX_LIST_PAGES,
  DEFAULT_MCP_MAX_TOOLS,
  DEFAULT_PROXY_REQUEST_TIMEOUT_MARGIN_MS,
} from '../../core/defaults.js';
import type { SchemaCompiler } from '../../schema/schema-compiler.js';
import { type McpTools, mcpToolsOf } from './from-mcp-client.js';
import { listMcpTools } from './list-mcp-tools.js';
import type { McpClientPort } from './mcp-client-port.js';
import { filterTools } from './proxy/filter-tools.js';
import type { ProxiedTool } from './proxy/mcp-shapes.js';
import type { ProxyConfig } from './proxy/proxy-config.js';
import type { ProxyResources } from './proxy-resources.js';
import { proxyRuntime, proxyToolSettings } from './proxy-tool-settings.js';
import { createUpstreamSet, type UpstreamSet, type UpstreamSetOptions } from './upstream-set.js';

/** Lines said of the tools left out of one list, at most. */
const MAX_SKIPPED_LINES = 5;

/** Upstream tools as the proxy serves them: the clients' list and the runtime their calls run in. */
export interface GuardedUpstreams {
  /** The tools as the clients see them (after `allow` and `deny`), each the upstream's own object. */
  readonly tools: readonly ProxiedTool[];
  readonly runtime: ToolRuntime;
  /** The chain's name of a tool as the client names it (`gh.echo` is `gh_echo` in the chain). */
  chainName(name: string): string;
  /** Stops listening for list changes. */
  close(): void;
}

/**
 * Guards the tools of one port (an upstream set's: every server of it): each read as a toolwarden tool
 * (`mcpToolsOf`, the config's settings per tool), in one runtime over the proxy's store. Rebuilt on each
 * `list_changed` of the port, then `onChanged`.
 */
export async function guardUpstreams(options: {
  readonly port: McpClientPort;
  readonly config: ProxyConfig;
  readonly resources: Pick<ProxyResources, 'store' | 'wrapToolExecution'>;
  readonly compiler: SchemaCompiler;
  readonly requestTimeoutMs: number;
  /** Tools kept of the port's list, at most (each server of a set keeps its own share: see `UpstreamMember`). */
  readonly maxTools: number;
  readonly log: (line: string) => void;
  readonly onChanged: () => void;
  /** Looks at each listed set of tools before it is served (and may hold some back); default: served as listed. */
  readonly review?: (tools: ProxiedTool[]) => Promise<ProxiedTool[]>;
}): Promise<GuardedUpstreams> {
  const { port, config, log } = options;
  let tools: ProxiedTool[] = [];
  let runtime: ToolRuntime | undefined;
  let mcp: McpTools | undefined;
  const chainName = (name: string) => mcp?.nameMap.toProvider(name) ?? name;
  const rebuild = async () => {
    const current = mcp;
    if (current === undefined) return;
    const raw = await listRaw(port, options.requestTimeoutMs);
    const listed = filterTools(raw, config).filter(
      (tool) => current.info(chainName(tool.name)) !== undefined,
    );
    tools = options.review === undefined ? listed : await options.review(listed);
    runtime = proxyRuntime(current.tools, config, options.resources, chainName);
    // A few lines, not one per tool: a hostile list of thousands would flood the operator's log.
    for (const skipped of current.skipped.slice(0, MAX_SKIPPED_LINES))
      log(`upstream tool ${skipped.name ?? `#${skipped.index}`} left out: ${skipped.problem}`);
    if (current.skipped.length > MAX_SKIPPED_LINES)
      log(`…and ${current.skipped.length - MAX_SKIPPED_LINES} more upstream tool(s) left out`);
  };
  mcp = await mcpToolsOf(
    port,
    {
      trusted: config.trustAnnotations,
      requestTimeoutMs: options.requestTimeoutMs,
      maxTools: options.maxTools,
      tool: proxyToolSettings(config, options.compiler),
      schemaCompiler: options.compiler,
      onToolsChanged: (change) => {
        if ('error' in change) return log('the upstream tool list changed but could not be read');
        void rebuild().then(options.onChanged, () =>
          log('the upstream tool list changed but could not be read'),
        );
      },
    },
    { asSent: true },
  );
  await rebuild();
  return {
    get tools() {
      return tools;
    },
    get runtime() {
      return runtime as ToolRuntime;
    },
    chainName,
    close: () => mcp?.close(),
  };
}

/** The upstream's tool definitions as it sent them (every page): what `tools/list` passes on unchanged. */
async function listRaw(port: McpClientPort, timeout: number): Promise<ProxiedTool[]> {
  const raw = await listMcpTools(port, {
    signal: new AbortController().signal,
    timeout,
    maxPages: DEFAULT_MCP_MAX_LIST_PAGES,
  });
  return raw.filter(
    (tool): tool is ProxiedTool =>
      typeof tool === 'object' && tool !== null && typeof (tool as { name?: unknown }).name === 'string',
  );
}

/** The request timeout of the proxy's requests upstream: the longest call timeout, and a margin. */
export function proxyRequestTimeout(config: ProxyConfig): number {
  return (
    Math.max(config.timeouts.defaultMs, ...Object.values(config.timeouts.tools)) +
    DEFAULT_PROXY_REQUEST_TIMEOUT_MARGIN_MS
  );
}

/** An upstream set connected and guarded, with what closes both. */
export interface OpenUpstreams {
  readonly set: UpstreamSet;
  readonly guarded: GuardedUpstreams;
  close(): Promise<void>;
}

/**
 * Connects a set of upstreams (`createUpstreamSet`: with `required`, the first that fails rejects; else
 * those that fail are said and left out) and guards their tools (`guardUpstreams`).
 */
export async function openGuardedUpstreams(
  setOptions: UpstreamSetOptions,
  guard: Omit<Parameters<typeof guardUpstreams>[0], 'port' | 'requestTimeoutMs' | 'maxTools'>,
): Promise<OpenUpstreams> {
  const set = createUpstreamSet(setOptions);
  try {
    await set.start();
    const guarded = await guardUpstreams({
      ...guard,
      port: set.port,
      requestTimeoutMs: setOptions.list.timeoutMs,
      maxTools: Math.max(1, setOptions.servers.length) * DEFAULT_MCP_MAX_TOOLS,
    });
    return {
      set,
      guarded,
      async close() {
        guarded.close();
        await set.close();
      },
    };
  } catch (error) {
    await set.close();
    throw error;
  }
}
